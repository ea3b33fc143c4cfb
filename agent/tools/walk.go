package tools

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// alwaysSkipped are directory names never listed or searched, ignored or
// not: version control internals and dependency trees nobody reads by hand.
var alwaysSkipped = []string{".git", "node_modules"}

// maxWalkFiles bounds one enumeration so a huge tree cannot stall a call.
const maxWalkFiles = 200_000

// workspaceFiles lists the files under dir (absolute, inside root) that
// .gitignore does not exclude, as slash-separated paths relative to root,
// sorted. Inside a git work tree git itself decides (tracked plus untracked
// files, honouring every ignore source git knows); elsewhere the tree is
// walked with nested .gitignore files applied. complete is false when the
// enumeration stopped at maxWalkFiles.
func workspaceFiles(ctx context.Context, root, dir string) (files []string, complete bool, err error) {
	files, err = gitFiles(ctx, root, dir)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		files, err = walkFiles(ctx, root, dir)
		if err != nil {
			return nil, false, err
		}
	}
	files = slices.DeleteFunc(files, skippedPath)
	slices.Sort(files)
	complete = len(files) < maxWalkFiles
	if !complete {
		files = files[:maxWalkFiles]
	}
	return files, complete, nil
}

func skippedPath(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if slices.Contains(alwaysSkipped, part) {
			return true
		}
	}
	return false
}

// gitFiles asks git for the files under dir; it fails when root is not in a
// git work tree or git is missing, and the caller then walks instead.
func gitFiles(ctx context.Context, root, dir string) ([]string, error) {
	rel, ok := within(root, dir)
	if !ok {
		return nil, errors.New("directory outside the root")
	}
	cmd := exec.CommandContext(ctx, "git", "--literal-pathspecs", "-c", "core.quotepath=off", "ls-files",
		"--cached", "--others", "--exclude-standard", "-z", "--", filepath.ToSlash(rel))
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New(strings.TrimSpace(stderr.String()))
	}
	var files []string
	seen := map[string]bool{} // ls-files repeats paths with merge conflicts
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		// --cached also names tracked files deleted from the work tree.
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil || fi.IsDir() {
			continue
		}
		files = append(files, name)
		if len(files) >= maxWalkFiles {
			break
		}
	}
	return files, nil
}

// walkFiles walks dir applying the .gitignore files of root, of dir's
// ancestors below root, and of every directory walked.
func walkFiles(ctx context.Context, root, dir string) ([]string, error) {
	rel, ok := within(root, dir)
	if !ok {
		return nil, errors.New("directory outside the root")
	}
	// Patterns of the directories above dir apply inside it too.
	var patterns []gitignore.Pattern
	patterns = append(patterns, readIgnoreFile(root, nil)...)
	var domain []string
	for _, part := range splitPath(filepath.ToSlash(rel)) {
		domain = append(domain, part)
		patterns = append(patterns, readIgnoreFile(filepath.Join(root, filepath.Join(domain...)), slices.Clone(domain))...)
	}
	// Each directory's matcher holds its ancestors' patterns plus its own.
	matchers := map[string][]gitignore.Pattern{dir: patterns}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err != nil {
			if path == dir {
				return err
			}
			return nil // unreadable entry: leave it out
		}
		if path == dir {
			return nil
		}
		if len(files) >= maxWalkFiles {
			return filepath.SkipAll
		}
		relPath, _ := filepath.Rel(root, path)
		parts := splitPath(filepath.ToSlash(relPath))
		inherited := matchers[filepath.Dir(path)]
		if slices.Contains(alwaysSkipped, d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if gitignore.NewMatcher(inherited).Match(parts, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			own := readIgnoreFile(path, parts)
			matchers[path] = append(slices.Clip(inherited), own...)
			return nil
		}
		if d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0 {
			files = append(files, filepath.ToSlash(relPath))
		}
		return nil
	})
	return files, err
}

// readIgnoreFile parses dir/.gitignore; domain is dir relative to the root,
// so its patterns only apply below it. A missing file has no patterns.
func readIgnoreFile(dir string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
