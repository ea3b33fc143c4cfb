package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/atomicfile"
)

// Host reads and writes files on disk and runs commands with Run.
type Host struct {
	// Root confines edits: one to a path outside it is refused, and the
	// edit's reads, writes, directories and deletes stay beneath it
	// (atomicfile.Dir), so a symlink cannot lead them out either.
	// Empty: the caller has confined the path already (a front door that
	// checked it against its session root).
	Root string
}

// ReadFile returns the file's content on disk. Reads are not confined to
// Root: a user may hand the agent a file from elsewhere as context. A
// missing file's error matches fs.ErrNotExist.
func (Host) ReadFile(ctx context.Context, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("read %q: %w", path, ErrNotAbsolute)
	}
	data, err := atomicfile.ReadFile(path)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// ApplyEdit writes the edit to disk, refusing it (Applied false, with a
// reason) when the path lies outside Root or the file no longer matches
// what the agent read, as an editor would. A created file gets its missing
// parent directories; writes replace a file atomically and keep its mode.
// A write is on stable storage when ApplyEdit returns, unless ctx carries
// an atomicfile.Batch: then when the batch is synced.
func (h Host) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	if err := ctx.Err(); err != nil {
		return edits.Result{}, err
	}
	if reason := Refusal(h.Root, e.Path); reason != "" {
		return edits.Result{Reason: reason}, nil
	}
	top := h.Root
	if top == "" {
		top = existingParent(e.Path)
	}
	d, err := atomicfile.OpenDir(top)
	if err != nil {
		return edits.Result{}, fmt.Errorf("open %s: %w", top, err)
	}
	defer d.Close()
	rel, err := filepath.Rel(top, e.Path)
	if err != nil {
		return edits.Result{}, fmt.Errorf("edit %s: %w", e.Path, err)
	}
	name := filepath.ToSlash(rel)
	current, err := d.ReadFile(name)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return edits.Result{}, fmt.Errorf("read %s: %w", e.Path, err)
	}
	if reason := Conflict(e, string(current), exists); reason != "" {
		return edits.Result{Reason: reason}, nil
	}
	if e.Delete {
		if err := d.Remove(name); err != nil {
			return edits.Result{}, fmt.Errorf("delete %s: %w", e.Path, err)
		}
		return edits.Result{Applied: true}, nil
	}
	if e.Create {
		if err := d.MkdirAll(path.Dir(name), 0o755); err != nil {
			return edits.Result{}, fmt.Errorf("create directory for %s: %w", e.Path, err)
		}
	}
	// The write stays beneath d too: a symlink swapped in on the way
	// (while a permission prompt was open, say) cannot lead it out. Under
	// a turn's batch the fsync waits for the turn's end, one per file.
	write := atomicfile.WriteIn
	if b := atomicfile.BatchFrom(ctx); b != nil {
		write = b.WriteIn
	}
	if err := write(d, name, []byte(e.New), 0o644); err != nil {
		return edits.Result{}, err
	}
	return edits.Result{Applied: true}, nil
}

// RunCommand runs the command on this machine; see Run.
func (Host) RunCommand(ctx context.Context, spec command.Spec) (command.Result, error) {
	return Run(ctx, spec)
}

// existingParent is the nearest real directory above path, the
// confinement for a Host without a Root. A symlink does not count: were it
// followed, a link swapped in for a directory would move the confinement
// to wherever it points.
func existingParent(path string) string {
	dir := filepath.Dir(path)
	for {
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return dir
		}
		dir = up
	}
}
