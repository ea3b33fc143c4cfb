package hosttest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/edits"
)

// prompt is how long a cancelled call may take to return.
const prompt = 3 * time.Second

// suite is one check's view of the harness: its own directory below Root.
type suite struct {
	h   Harness
	dir string
	ctx context.Context
}

// newDir makes a fresh directory for one check, named after it.
func newDir(t *testing.T, root string) string {
	t.Helper()
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, t.Name())
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (s *suite) path(name string) string { return filepath.Join(s.dir, filepath.FromSlash(name)) }

// onDisk writes a file straight to disk, behind the host's back.
func (s *suite) onDisk(t *testing.T, name, text string) string {
	t.Helper()
	p := s.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// wantRead fails unless the host reads want at path.
func (s *suite) wantRead(t *testing.T, path, want string) {
	t.Helper()
	got, err := s.h.Host.ReadFile(s.ctx, path)
	if err != nil || got != want {
		t.Fatalf("ReadFile(%s) = %q, %v; want %q", filepath.Base(path), got, err, want)
	}
}

// wantMissing fails unless reading path is an error matching fs.ErrNotExist.
func (s *suite) wantMissing(t *testing.T, path string) {
	t.Helper()
	got, err := s.h.Host.ReadFile(s.ctx, path)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadFile(%s) = %q, %v; want an error matching fs.ErrNotExist", filepath.Base(path), got, err)
	}
}

// apply hands e to the host; an error fails the check, since neither an
// applied nor a refused edit is one.
func (s *suite) apply(t *testing.T, e edits.FileEdit) edits.Result {
	t.Helper()
	res, err := s.h.Host.ApplyEdit(s.ctx, e)
	if err != nil {
		t.Fatalf("ApplyEdit(%s): error %v; want a Result", e.Path, err)
	}
	return res
}

func (s *suite) wantApplied(t *testing.T, e edits.FileEdit) {
	t.Helper()
	if res := s.apply(t, e); !res.Applied {
		t.Fatalf("ApplyEdit(%s) refused (%q); want it applied", filepath.Base(e.Path), res.Reason)
	}
}

func (s *suite) wantRefused(t *testing.T, e edits.FileEdit) {
	t.Helper()
	res := s.apply(t, e)
	if res.Applied || res.Reason == "" {
		t.Fatalf("ApplyEdit(%s) = %+v; want it refused with a reason", filepath.Base(e.Path), res)
	}
}

// wantNoFile fails when path exists on disk.
func wantNoFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s exists on disk (%v); the host must not have written it", path, err)
	}
}

// returnsPromptly runs call, cancels its context once started says the
// call is under way, and wants it back soon with the context's error.
func returnsPromptly(t *testing.T, started func(cancel context.CancelFunc), call func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	started(cancel)
	wantCancelled(t, done)
}

// wantCancelled waits for a cancelled call's result: soon, and matching
// context.Canceled.
func wantCancelled(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call returned %v; want an error matching context.Canceled", err)
		}
	case <-time.After(prompt):
		t.Fatalf("cancelled call still running %v later", prompt)
	}
}

// cancelWhileHeld makes the editor hold the host's next request and runs
// call. Once the request reaches the editor, call's context is cancelled
// and call must come back promptly with the context's error. A host that
// answers call without asking the editor (an LSP host reads the buffers
// the client mirrored to it) passes when call succeeds.
func (s *suite) cancelWhileHeld(t *testing.T, call func(ctx context.Context) error) {
	t.Helper()
	arrived, release := s.h.Stall(t)
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the call failed without reaching the editor: %v", err)
		}
		return
	case <-arrived:
	}
	cancel()
	wantCancelled(t, done)
}
