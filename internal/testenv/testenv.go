// Package testenv helps tests that need things outside the Go toolchain: the
// built tandem binary, programs such as nvim, and node packages installed by
// test.sh. Under test.sh (TANDEM_TEST_STRICT=1) a missing dependency fails the
// test; in a bare `go test` it skips with the command that installs it.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/internal/buildflags"
)

// Strict reports whether missing dependencies fail tests.
func Strict() bool { return os.Getenv("TANDEM_TEST_STRICT") == "1" }

func missing(t testing.TB, what string) {
	t.Helper()
	if Strict() {
		t.Fatalf("%s is missing; run ./test.sh, which installs it", what)
	}
	t.Skipf("%s is missing; run ./test.sh, which installs it", what)
}

// Program returns the path of an external program or stops the test.
func Program(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		missing(t, name)
	}
	return p
}

// NodeModules returns the node_modules directory test.sh fills, after
// checking that each named package is in it.
func NodeModules(t testing.TB, packages ...string) string {
	t.Helper()
	Program(t, "node")
	dir := os.Getenv("TANDEM_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), ".cache", "node", "node_modules")
	}
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(dir, p, "package.json")); err != nil {
			missing(t, "node package "+p)
		}
	}
	return dir
}

// RepoRoot returns the repository root.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testenv: cannot locate the source tree")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
	buildOut  []byte
)

// BuildFlags are the release build's flags for Linux (internal/buildflags):
// a static, stripped binary, faster to start, which every sandboxed
// command does; elsewhere none. Tests build tandem with them so that they
// run what users run.
func BuildFlags() []string {
	if runtime.GOOS != "linux" {
		return nil
	}
	return []string{"-tags", buildflags.Tags, "-ldflags", buildflags.StaticLDFlags}
}

// Tandem builds cmd/tandem once per test binary, as README builds it, and
// returns its path.
func Tandem(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tandem-test-bin-")
		if err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "tandem")
		args := append(append([]string{"build"}, BuildFlags()...), "-o", buildPath, "./cmd/tandem")
		cmd := exec.Command("go", args...)
		cmd.Dir = RepoRoot(t)
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building tandem: %v\n%s", buildErr, buildOut)
	}
	return buildPath
}
