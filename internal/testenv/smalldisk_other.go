//go:build !linux

package testenv

import "testing"

// SmallDisk mounts a small file system on Linux only; elsewhere the test
// needing one skips (or fails under test.sh).
func SmallDisk(t testing.TB, dir string, size int) {
	t.Helper()
	missing(t, "a small file system to fill (SmallDisk mounts one on Linux only)")
}

// FillDisk fills a SmallDisk; see SmallDisk.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	missing(t, "a small file system to fill (SmallDisk mounts one on Linux only)")
	return func() {}
}
