package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ListFilesName is the model-facing name of the listing tool.
const ListFilesName = "list_files"

// listMaxEntries caps one listing; the rest is counted, not shown.
const listMaxEntries = 1000

//go:embed list_files.md
var listFilesDescription string

type listFilesArgs struct {
	Path      string `json:"path,omitempty" jsonschema:"Directory to list, relative to the workspace root. Default: the root."`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"List every file below the directory instead of only its direct entries. Default false."`
}

// NewListFiles returns the list_files tool.
func NewListFiles() Tool {
	return New(Spec[listFilesArgs]{Name: ListFilesName, Group: GroupRead, Kind: KindSearch,
		Doc: listFilesDescription, Run: runListFiles, Describe: describeListFiles})
}

func describeListFiles(root string, p listFilesArgs) Preview {
	display, abs := previewPath(root, p.Path)
	title := "List " + display
	if p.Recursive {
		title += " (recursive)"
	}
	return Preview{Title: title, Locations: previewLocations(abs, 0)}
}

func runListFiles(ctx context.Context, env *Env, p listFilesArgs) (Result, error) {
	if p.Path == "" {
		p.Path = "."
	}
	abs, err := env.Resolve(p.Path)
	if err != nil {
		return failureErr(err), nil
	}
	shown := displayPath(env.Root, abs)
	fi, err := os.Stat(abs)
	if err != nil {
		return failure("cannot list %s: %v", shown, err), nil
	}
	if !fi.IsDir() {
		return failure("%s is a file, not a directory; use read_file to read it", shown), nil
	}
	root, _ := filepath.EvalSymlinks(env.RootOf(abs))
	files, complete, err := workspaceFiles(ctx, root, abs)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return failure("cannot list %s: %v", shown, err), nil
	}
	files = env.visible(root, files)
	entries := files
	if !p.Recursive {
		entries = directEntries(root, abs, files)
	}
	var b strings.Builder
	if len(entries) == 0 {
		fmt.Fprintf(&b, "%s has no files (ignored files are not listed)\n", shown)
	}
	for i, e := range entries {
		if i == listMaxEntries {
			fmt.Fprintf(&b, "\n[%d more entries not shown. List a subdirectory, or use search_files with a glob, to see them.]\n", len(entries)-i)
			break
		}
		b.WriteString(e)
		b.WriteByte('\n')
	}
	if !complete {
		fmt.Fprintf(&b, "\n[Stopped counting after %d files; the directory holds more.]\n", maxWalkFiles)
	}
	return Result{
		Output:    b.String(),
		Locations: []Location{{Path: abs}},
		Touched:   []string{abs},
	}, nil
}

// directEntries reduces a recursive file list (paths relative to root) to
// the direct children of dir, directories marked with a trailing slash.
// Directories show up when they hold at least one listed file, the way git
// sees a tree.
func directEntries(root, dir string, files []string) []string {
	prefix := ""
	if rel, _ := within(root, dir); rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		rest, ok := strings.CutPrefix(f, prefix)
		if !ok {
			continue
		}
		entry := prefix + rest
		if first, _, isDir := strings.Cut(rest, "/"); isDir {
			entry = prefix + first + "/"
		}
		if !seen[entry] {
			seen[entry] = true
			out = append(out, entry)
		}
	}
	return out
}
