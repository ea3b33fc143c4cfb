package codeindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/treesitter"
)

// skipDirs are never indexed, whatever the ignore files say: version control
// internals, dependency trees and build output.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true,
	"target": true, "dist": true, "build": true, "__pycache__": true, ".tandem": true,
}

// skipped reports whether a slash-separated relative path lies in a skipped directory.
func skipped(rel string) bool {
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return false
		}
		if skipDirs[rel[:i]] {
			return true
		}
		rel = rel[i+1:]
	}
}

// indexable reports whether a file name selects a registered language.
func indexable(name string) bool { return treesitter.ForPath(name) != nil }

// listFiles returns the root's source files as sorted slash-separated
// relative paths. Inside a git work tree git decides what is ignored; else
// the tree is walked honouring every .gitignore on the way down.
// dirs remembers directory listings between walks (nil: do not remember).
func listFiles(ctx context.Context, root string, dirs *dirCache) (files []string, problems []string, err error) {
	files, err = gitFiles(ctx, root)
	if err != nil {
		files, problems, err = walkFiles(ctx, root, dirs)
		if err != nil {
			return nil, problems, err
		}
	}
	sort.Strings(files)
	return files, problems, nil
}

// errNotGit means the root is not inside a git work tree (or git is missing).
var errNotGit = errors.New("not a git work tree")

func gitFiles(ctx context.Context, root string) ([]string, error) {
	if !insideGit(root) {
		return nil, errNotGit
	}
	cmd := exec.CommandContext(ctx, "git", "-c", "core.quotepath=off", "ls-files",
		"-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: git ls-files: %v: %s", errNotGit, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var files []string
	seen := make(map[string]bool)
	for _, p := range bytes.Split(out, []byte{0}) {
		rel := string(p)
		// A file with unmerged stages is listed once per stage.
		if rel == "" || seen[rel] || skipped(rel) || !indexable(rel) {
			continue
		}
		seen[rel] = true
		files = append(files, rel)
	}
	return files, nil
}

// insideGit looks for a .git entry in root or above, so a plain directory
// never pays for starting git.
func insideGit(root string) bool {
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

func displayDir(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
