package hosttest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/tools"
)

// checks is the suite. A check marked buffer or stall runs only against
// hosts whose harness can open unsaved buffers or hold an editor's answer;
// the others run against every host.
var checks = []check{
	{name: "read returns the file's bytes", run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "r.txt", "héllo\r\nwörld\n\tend")
		s.wantRead(t, p, "héllo\r\nwörld\n\tend")
	}},
	{name: "read of a missing file matches fs.ErrNotExist", run: func(t *testing.T, s *suite) {
		s.wantMissing(t, s.path("nowhere/missing.txt"))
	}},
	{name: "read of a relative path fails", run: func(t *testing.T, s *suite) {
		if got, err := s.h.Host.ReadFile(s.ctx, "go.mod"); err == nil {
			t.Fatalf("ReadFile(go.mod) = %.40q; want an error: hosts never guess what a relative path is relative to", got)
		}
	}},
	{name: "read sees the unsaved buffer", buffer: true, run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "b.txt", "on disk\n")
		s.h.SetBuffer(t, p, "in the buffer\n")
		s.wantRead(t, p, "in the buffer\n")
	}},
	{name: "edit replaces the content", run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "e.go", "package a\n\nfunc f() {}\n")
		s.wantApplied(t, edits.FileEdit{Path: p, Old: "package a\n\nfunc f() {}\n", New: "package a\n\nfunc g() {}\n"})
		s.wantRead(t, p, "package a\n\nfunc g() {}\n")
	}},
	{name: "edit of a file changed since it was read is refused", run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "s.txt", "changed by someone else\n")
		s.wantRefused(t, edits.FileEdit{Path: p, Old: "what the agent read\n", New: "agent's change\n"})
		s.wantRead(t, p, "changed by someone else\n")
	}},
	{name: "edit of an unsaved buffer applies to the buffer", buffer: true, run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "ub.txt", "disk\n")
		s.h.SetBuffer(t, p, "buffer\n")
		s.wantApplied(t, edits.FileEdit{Path: p, Old: "buffer\n", New: "buffer, edited\n"})
		s.wantRead(t, p, "buffer, edited\n")
	}},
	{name: "edit made against the disk under a changed buffer is refused", buffer: true, run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "sb.txt", "disk\n")
		s.h.SetBuffer(t, p, "typed in the editor\n")
		s.wantRefused(t, edits.FileEdit{Path: p, Old: "disk\n", New: "agent's change\n"})
		s.wantRead(t, p, "typed in the editor\n")
	}},
	{name: "create writes the file and its missing parent directories", run: func(t *testing.T, s *suite) {
		p := s.path("new/deeper/file.txt")
		s.wantApplied(t, edits.FileEdit{Path: p, New: "fresh\n", Create: true})
		s.wantRead(t, p, "fresh\n")
		if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() {
			t.Fatalf("parent directory after create: %v", err)
		}
	}},
	{name: "create of an empty file", run: func(t *testing.T, s *suite) {
		p := s.path("empty.txt")
		s.wantApplied(t, edits.FileEdit{Path: p, Create: true})
		s.wantRead(t, p, "")
	}},
	{name: "create over an existing file is refused", run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "exists.txt", "keep me\n")
		s.wantRefused(t, edits.FileEdit{Path: p, New: "clobbered\n", Create: true})
		s.wantRead(t, p, "keep me\n")
	}},
	{name: "edit of a missing file is refused", run: func(t *testing.T, s *suite) {
		p := s.path("gone.txt")
		s.wantRefused(t, edits.FileEdit{Path: p, Old: "was here\n", New: "edited\n"})
		s.wantMissing(t, p)
	}},
	{name: "delete removes the file", run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "d.txt", "bye\n")
		s.wantApplied(t, edits.FileEdit{Path: p, Old: "bye\n", Delete: true})
		s.wantMissing(t, p)
		wantNoFile(t, p)
	}},
	{name: "delete of a file changed since it was read is refused", run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "dc.txt", "new work\n")
		s.wantRefused(t, edits.FileEdit{Path: p, Old: "old work\n", Delete: true})
		s.wantRead(t, p, "new work\n")
	}},
	{name: "delete of a missing file is refused", run: func(t *testing.T, s *suite) {
		s.wantRefused(t, edits.FileEdit{Path: s.path("never.txt"), Old: "x\n", Delete: true})
	}},
	{name: "edit outside the root is refused", run: func(t *testing.T, s *suite) {
		created := filepath.Join(s.h.Outside, filepath.Base(s.dir)+"-new.txt")
		s.wantRefused(t, edits.FileEdit{Path: created, New: "escaped\n", Create: true})
		wantNoFile(t, created)
		existing := filepath.Join(s.h.Outside, filepath.Base(s.dir)+"-old.txt")
		if err := os.WriteFile(existing, []byte("outside\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		s.wantRefused(t, edits.FileEdit{Path: existing, Old: "outside\n", New: "escaped\n"})
		if data, _ := os.ReadFile(existing); string(data) != "outside\n" {
			t.Fatalf("the file outside the root now holds %q", data)
		}
		climb := s.path("../../" + filepath.Base(s.h.Outside) + "/" + filepath.Base(s.dir) + "-climb.txt")
		s.wantRefused(t, edits.FileEdit{Path: climb, New: "escaped\n", Create: true})
		wantNoFile(t, filepath.Clean(climb))
	}},
	{name: "edit of a relative path is refused", run: func(t *testing.T, s *suite) {
		name := filepath.Base(s.dir) + "-relative.txt"
		t.Cleanup(func() { os.Remove(name) }) // a failing host must not litter the test's directory
		s.wantRefused(t, edits.FileEdit{Path: name, New: "where?\n", Create: true})
		wantNoFile(t, name)
	}},
	{name: "calls with a cancelled context do nothing", run: func(t *testing.T, s *suite) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		p := s.onDisk(t, "c.txt", "before\n")
		if got, err := s.h.Host.ReadFile(ctx, p); !errors.Is(err, context.Canceled) {
			t.Errorf("ReadFile with a cancelled context = %q, %v; want context.Canceled", got, err)
		}
		created := s.path("cancelled.txt")
		if res, err := s.h.Host.ApplyEdit(ctx, edits.FileEdit{Path: created, New: "x", Create: true}); !errors.Is(err, context.Canceled) {
			t.Errorf("ApplyEdit with a cancelled context = %+v, %v; want context.Canceled", res, err)
		}
		wantNoFile(t, created)
		s.wantRead(t, p, "before\n")
	}},
	{name: "cancel during a read the editor holds returns promptly", stall: true, run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "held.txt", "x\n")
		s.cancelWhileHeld(t, func(ctx context.Context) error {
			_, err := s.h.Host.ReadFile(ctx, p)
			return err
		})
	}},
	{name: "cancel during an edit the editor holds returns promptly", stall: true, run: func(t *testing.T, s *suite) {
		p := s.onDisk(t, "held-edit.txt", "x\n")
		s.cancelWhileHeld(t, func(ctx context.Context) error {
			_, err := s.h.Host.ApplyEdit(ctx, edits.FileEdit{Path: p, Old: "x\n", New: "y\n"})
			return err
		})
	}},
	{name: "cancel stops a running command", run: func(t *testing.T, s *suite) {
		returnsPromptly(t, func(cancel context.CancelFunc) { time.Sleep(100 * time.Millisecond); cancel() }, func(ctx context.Context) error {
			_, err := s.h.Host.RunCommand(ctx, tools.CommandSpec{Command: "sleep 30", Dir: s.dir, Timeout: time.Minute})
			return err
		})
	}},
}
