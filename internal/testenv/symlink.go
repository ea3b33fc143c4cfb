package testenv

import (
	"os"
	"testing"
)

// Symlink makes link point to target, and fails the test if the system
// said it did but made none: Wine 8's CreateSymbolicLinkW is a stub that
// reports success, which would turn every symlink case into a test of a
// missing file.
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("os.Symlink(%s, %s) reported success but made no symlink (Wine 8 does not implement them): %v", target, link, err)
	}
}
