package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/edits"
)

// LocalHost is a Host on this machine: files on disk, commands run with
// RunLocal. Front doors without an editor-side file system or terminal (ACP
// clients lacking those capabilities, LSP, the CLI) use it or embed it.
type LocalHost struct{}

var _ Host = LocalHost{}

// ReadFile returns the file's content on disk. A missing file's error
// matches fs.ErrNotExist.
func (LocalHost) ReadFile(_ context.Context, path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// ApplyEdit writes the edit to disk, refusing it (Applied false, with a
// reason) when the file no longer matches what the agent read, as an
// editor would. Writes replace the file atomically (temp file + rename in
// the same directory) and keep its permissions.
func (LocalHost) ApplyEdit(_ context.Context, e edits.FileEdit) (edits.Result, error) {
	current, err := os.ReadFile(e.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return edits.Result{}, fmt.Errorf("read %s: %w", e.Path, err)
	}
	switch {
	case e.Create && exists:
		return edits.Result{Reason: "the file already exists"}, nil
	case !e.Create && !exists:
		return edits.Result{Reason: "the file no longer exists"}, nil
	case !e.Create && string(current) != e.Old:
		return edits.Result{Reason: "the file changed on disk since it was read"}, nil
	}
	if e.Delete {
		if err := os.Remove(e.Path); err != nil {
			return edits.Result{}, fmt.Errorf("delete %s: %w", e.Path, err)
		}
		return edits.Result{Applied: true}, nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(e.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	if e.Create {
		if err := os.MkdirAll(filepath.Dir(e.Path), 0o755); err != nil {
			return edits.Result{}, fmt.Errorf("create directory for %s: %w", e.Path, err)
		}
	}
	if err := writeAtomic(e.Path, []byte(e.New), mode); err != nil {
		return edits.Result{}, err
	}
	return edits.Result{Applied: true}, nil
}

// RunCommand runs the command locally; see RunLocal.
func (LocalHost) RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error) {
	return RunLocal(ctx, spec)
}

// writeAtomic replaces path with data so a reader (or a crash) sees either
// the old file or the new one, never half of it.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tandem-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	cleanup := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return cleanup(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return cleanup(err)
	}
	if err := tmp.Sync(); err != nil {
		return cleanup(err)
	}
	if err := tmp.Close(); err != nil {
		return cleanup(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
