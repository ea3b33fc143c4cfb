package release

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// windowsPackages are the packages whose code differs per platform (the
// list scripts/crossbuild.sh builds): their own tests, built for Windows,
// run under Wine and must pass.
var windowsPackages = []string{"internal/proc", "internal/pathx", "agent/policy", "agent/sandbox"}

// windowsPending are platform packages whose Windows tests do not pass
// under Wine yet, each with why. They are still built and run: one that
// starts passing fails this test until it moves to windowsPackages, so the
// list only shrinks.
var windowsPending = map[string]string{
	// Wine 8's ntdll answers FileDispositionInformationEx (Go 1.26's
	// os.RemoveAll) with STATUS_NOT_IMPLEMENTED ("Invalid function"),
	// which Go does not fall back from, so every t.TempDir cleanup fails.
	// Beside that, not Wine's doing and not yet fixed: the tests expect
	// Unix permission bits, and Batch.Sync gets "Access denied" syncing
	// files and directories (FlushFileBuffers wants a writable handle).
	"internal/atomicfile": "Wine 8 cannot delete through FileDispositionInformationEx; Unix modes expected; Batch.Sync access denied",
	// Wine 8's powershell.exe is a stub ("fixme:powershell:wmain stub"):
	// it runs nothing and exits 0, and shell.Argv prefers it to cmd.exe,
	// which does work under Wine.
	"internal/shell": "Wine 8's powershell.exe is a stub that runs nothing and exits 0",
	// Its commands go through shell.Argv, so the same stub runs nothing;
	// beside that, the blocked-write and confinement cases expect the
	// kernel sandbox Windows does not have in this release.
	"agent/local": "commands run through Wine 8's stub powershell.exe; some cases expect a kernel sandbox",
}

// The platform packages' tests, cross-built for windows/amd64 with cgo,
// run under Wine: windowsPackages pass, windowsPending still fail.
func TestWindowsPackagesUnderWine(t *testing.T) {
	wine, env := testenv.Wine(t)
	root := testenv.RepoRoot(t)
	tg := target(t, "windows-x86_64")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	// A cleanup, not a defer: the parallel subtests run after this returns.
	t.Cleanup(cancel)
	cc, err := DefaultCC(ctx, root, tg)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	pkgs = append(pkgs, windowsPackages...)
	for p := range windowsPending {
		pkgs = append(pkgs, p)
	}
	// One go test -c for all of them: the packages build in parallel and,
	// with -trimpath, from the same build cache as crossbuild.sh's.
	out := t.TempDir()
	args := []string{"test", "-c", "-trimpath", "-o", out + string(filepath.Separator)}
	for _, p := range pkgs {
		args = append(args, "./"+p)
	}
	build := exec.CommandContext(ctx, "go", args...)
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=1", "GOOS=windows", "GOARCH=amd64", "CC="+cc, "GOFLAGS=")
	start := time.Now()
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c for windows: %v\n%s", err, b)
	}
	t.Logf("built %d Windows test binaries in %v", len(pkgs), time.Since(start).Round(time.Second))
	for _, p := range pkgs {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(out, filepath.Base(p)+".test.exe")
			cmd := exec.CommandContext(ctx, wine, exe, "-test.timeout=5m")
			// In its package directory, as go test runs it, for testdata.
			cmd.Dir = filepath.Join(root, filepath.FromSlash(p))
			cmd.Env = env
			start := time.Now()
			b, err := cmd.CombinedOutput()
			took := time.Since(start).Round(time.Second)
			reason, pending := windowsPending[p]
			switch {
			case !pending && err != nil:
				t.Errorf("%s under Wine: %v (%v)\n%s", p, err, took, b)
			case pending && err == nil:
				t.Errorf("%s now passes under Wine (%v): move it from windowsPending to windowsPackages", p, took)
			case pending && failed(b) == "":
				// Not a test failing but the binary not running at all.
				t.Errorf("%s under Wine: %v, and no test reported failing (%v)\n%s", p, err, took, b)
			case pending:
				t.Logf("%s: pending (%s); failing under Wine: %s (%v)", p, reason, failed(b), took)
			default:
				t.Logf("%s: passes under Wine (%v)", p, took)
			}
		})
	}
}

var failLine = regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)

// failed names the top-level tests a test binary's output reports failed.
func failed(out []byte) string {
	var names []string
	for _, m := range failLine.FindAllSubmatch(out, -1) {
		names = append(names, string(m[1]))
	}
	return strings.Join(names, " ")
}
