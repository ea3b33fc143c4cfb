package testenv

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed testdata/processprng.c
var processPrng []byte

// Wine returns Debian's wine64 loader and the environment to run a Windows
// binary under it: a Wine prefix in the test cache (made once, outside the
// clone) whose system32 has the bcryptprimitives.dll Go's runtime needs and
// Wine 8 lacks (testdata/processprng.c, built with mingw-w64).
func Wine(t testing.TB) (wine string, env []string) {
	t.Helper()
	wine = "/usr/lib/wine/wine64" // Debian's wine64 package puts no wine64 on PATH
	if _, err := os.Stat(wine); err != nil {
		wine = Program(t, "wine64")
	}
	cc := Program(t, "x86_64-w64-mingw32-gcc")
	cache := os.Getenv("TANDEM_TEST_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "tandem-test")
	}
	prefix := filepath.Join(cache, "wine")
	env = append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all")
	dll := filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err == nil {
		return wine, env
	}
	// A new prefix is made aside and moved into place whole, so that tests
	// running at once never see half of one.
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(cache, "wine-new-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	boot := exec.Command(wine, "wineboot", "--init")
	boot.Env = append(os.Environ(), "WINEPREFIX="+tmp, "WINEDEBUG=-all")
	if out, err := boot.CombinedOutput(); err != nil {
		t.Fatalf("wineboot: %v\n%s", err, out)
	}
	src := filepath.Join(tmp, "processprng.c")
	if err := os.WriteFile(src, processPrng, 0o644); err != nil {
		t.Fatal(err)
	}
	tmpDLL := filepath.Join(tmp, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	if out, err := exec.Command(cc, "-shared", "-O2", "-o", tmpDLL, src, "-ladvapi32").CombinedOutput(); err != nil {
		t.Fatalf("building bcryptprimitives.dll: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, prefix); err != nil {
		if _, statErr := os.Stat(dll); statErr != nil {
			t.Fatal(fmt.Errorf("installing the Wine prefix: %w", err))
		}
	}
	return wine, env
}
