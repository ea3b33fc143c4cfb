package filelist

import (
	"context"
	"slices"
	"strings"
)

// SkipDirs returns the names every workspace listing leaves out wherever
// they occur below the directory listed, whatever the ignore files say:
// version control internals, dependency trees, build output and caches,
// which nobody edits by hand and which would drown a definitions listing.
// The file tools and the code index (tandem defs) both pass it as
// Options.Skip, so they agree on what the workspace is. A directory asked
// for by name (Options.Dir) is listed even when its own name is here.
func SkipDirs() []string {
	return []string{
		".git", ".hg", ".svn", "node_modules", "vendor",
		"target", "dist", "build", "__pycache__", ".tandem",
	}
}

// Options say what one listing covers. A Cache must always be used with the
// same root and the same Options: it remembers results already filtered.
type Options struct {
	// Skip names directories (and files) left out wherever they occur,
	// whatever the ignore files say, e.g. ".git" or "node_modules".
	Skip []string
	// Dir restricts the listing to this slash-separated directory below
	// the root ("" for the whole root). Paths stay relative to the root.
	Dir string
	// Keep, when set, admits only the files it accepts (given the path
	// relative to the root).
	Keep func(rel string) bool
	// Symlinks lists symbolic links found by the walk as files; without
	// it only regular files are listed. Links are never followed.
	Symlinks bool
	// CheckGit drops paths git names that are gone from the work tree or
	// are directories (submodules), at one lstat per path. Leave it off
	// when the caller stats every file anyway.
	CheckGit bool
	// Max caps the number of files (0: no cap).
	Max int
	// Cache remembers directory listings between walks (nil: none).
	Cache *Cache
}

// Problem is a directory the walk could not read; it was left out.
type Problem struct {
	Dir string // slash-separated, relative to the root; "" is the root
	Err error
}

// Result is one listing.
type Result struct {
	Files     []string // sorted, slash-separated, relative to the root
	Problems  []Problem
	Truncated bool // Max was reached; more files may exist
}

// List lists the files under root (an absolute, clean path). Inside a git
// work tree git decides what is ignored (tracked files count even when
// ignored); otherwise the tree is walked honouring every .gitignore from the
// root down. A root that its enclosing work tree ignores as a whole (a
// scratch directory under a home-directory repository whose .gitignore is
// "*", a tool's install tree) is walked too: it was chosen as the
// workspace, and git would show nothing of it. It fails only when ctx ends.
func List(ctx context.Context, root string, opts Options) (Result, error) {
	var res Result
	files, err := Git(ctx, root, opts)
	if err == nil && len(files) == 0 && ignoredRoot(ctx, root) {
		err = ErrNotGit
	}
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		res, err = Walk(ctx, root, opts)
		if err != nil {
			return Result{}, err
		}
	} else {
		res.Files = files
	}
	slices.Sort(res.Files)
	if opts.Max > 0 && len(res.Files) >= opts.Max {
		res.Files = res.Files[:opts.Max]
		res.Truncated = true
	}
	return res, nil
}

// Skipped reports whether any element of the slash-separated path rel is a
// name in skip.
func Skipped(rel string, skip []string) bool {
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return slices.Contains(skip, rel)
		}
		if slices.Contains(skip, rel[:i]) {
			return true
		}
		rel = rel[i+1:]
	}
}

// admit reports whether opts let the file at rel be listed. Skip applies
// below Dir only, as in a walk, which starts at Dir.
func (o *Options) admit(rel string) bool {
	below := rel
	if o.Dir != "" {
		below = strings.TrimPrefix(rel, o.Dir+"/")
	}
	return !Skipped(below, o.Skip) && (o.Keep == nil || o.Keep(rel))
}

// full reports whether files has reached the cap.
func (o *Options) full(files []string) bool { return o.Max > 0 && len(files) >= o.Max }
