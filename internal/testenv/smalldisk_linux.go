//go:build linux

package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// SmallDisk mounts a file system of size bytes (a tmpfs) on dir, which it
// creates, and unmounts it when the test ends: it gives a test a real
// ENOSPC. dir must be in one of the test's TempDirs, so that the unmount
// comes before their removal. Mounting needs root (CAP_SYS_ADMIN), which
// test.sh has; without it the test skips, or fails under test.sh.
func SmallDisk(t testing.TB, dir string, size int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	err := unix.Mount("tandem-test", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, fmt.Sprintf("size=%d,mode=0700", size))
	if errors.Is(err, unix.EPERM) {
		missing(t, "the right to mount a tmpfs (root)")
	}
	if err != nil {
		t.Fatalf("mount a tmpfs on %s: %v", dir, err)
	}
	// Cleanups run last registered first: this one before TempDir's.
	// Lazily, so a file a child process still
	// holds open does not keep it mounted.
	t.Cleanup(func() {
		if err := unix.Unmount(dir, unix.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
}

// FillDisk writes a file into dir until the file system holding it has no
// room left (ENOSPC), and returns a function that removes the file again.
// Use it on a SmallDisk.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Big pieces first, then smaller ones, down to the last byte a page
	// has room for.
	buf := make([]byte, 64<<10)
	for size := len(buf); size > 0; size /= 2 {
		for {
			_, err := f.Write(buf[:size])
			if err == nil {
				continue
			}
			if !errors.Is(err, unix.ENOSPC) {
				t.Fatalf("fill %s: %v", dir, err)
			}
			break
		}
	}
	return func() {
		t.Helper()
		if err := os.Remove(path); err != nil {
			t.Fatalf("free %s: %v", dir, err)
		}
	}
}
