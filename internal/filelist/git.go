package filelist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ErrNotGit means the root is not inside a git work tree or git failed.
var ErrNotGit = errors.New("not a git work tree")

// Git asks git for the files under root (tracked plus untracked, minus what
// git ignores), unsorted. It fails with ErrNotGit outside a work tree.
func Git(ctx context.Context, root string, opts Options) ([]string, error) {
	if !InsideGit(root) {
		return nil, ErrNotGit
	}
	args := []string{"--literal-pathspecs", "-c", "core.quotepath=off", "ls-files",
		"-z", "--cached", "--others", "--exclude-standard"}
	if opts.Dir != "" {
		args = append(args, "--", opts.Dir)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: git ls-files: %v: %s", ErrNotGit, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var files []string
	seen := make(map[string]bool)
	for p := range bytes.SplitSeq(out, []byte{0}) {
		rel := string(p)
		// A file with unmerged stages is listed once per stage.
		if rel == "" || seen[rel] || !opts.admit(rel) {
			continue
		}
		seen[rel] = true
		if opts.CheckGit {
			fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil || fi.IsDir() {
				continue
			}
		}
		files = append(files, rel)
		if opts.full(files) {
			break
		}
	}
	return files, nil
}

// ignoredRoot reports whether git ignores root itself.
func ignoredRoot(ctx context.Context, root string) bool {
	cmd := exec.CommandContext(ctx, "git", "check-ignore", "-q", "--", root)
	cmd.Dir = root
	return cmd.Run() == nil // exit 0: ignored; 1: not; 128: not a work tree or an error
}

// InsideGit looks for a .git entry in root or above, so a plain directory
// never pays for starting git.
func InsideGit(root string) bool {
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
