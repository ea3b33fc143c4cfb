package release

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/buildflags"
	"github.com/tandemhq/tandem/internal/testenv"
)

// platformPackages are the packages whose code differs per platform:
// their own tests are cross-built and run under Wine (windows-x86_64) and
// qemu-user (linux-aarch64). scripts/crossbuild.sh only vets and builds
// the binary; these tests build and run the test binaries.
var platformPackages = []string{
	"internal/proc", "internal/shell", "internal/atomicfile", "internal/pathx", "internal/fileuri",
	"internal/fserr", "internal/flock", "agent/sandbox", "agent/local", "agent/policy", "agent/settings",
}

// gaps are, per platform and package, the top-level tests that cannot
// pass under the emulator, each with why; "*" stands for the whole
// package. A gap is still run, apart, and must fail: one that starts
// passing fails the test until it is taken off the list, so the lists
// only shrink.
var gaps = map[string]map[string]map[string]string{
	"windows-x86_64": {
		"internal/atomicfile": {"TestWriteInStaysInTheRoot": wineSymlinks, "TestDirRefusesWhatLeadsOut": wineSymlinks},
		"agent/settings": {"TestSaveRefusesSymlinks": wineSymlinks,
			"TestCommittedLocalFileNeedsConsent": "no git for Windows in the Wine prefix"},
		// The cmd fallback is tested for real (TestCmdRunsScriptVerbatim).
		"internal/shell": {"TestCommandRunsScript": winePowerShell, "TestCommandReportsExitCode": winePowerShell},
		// Its sh and sandbox tests are Unix-only; their Windows
		// counterparts run in cmd (run_windows_test.go).
		"agent/local": {"TestConformance": wineRemove + "; " + winePowerShell + " (the suite's sleep)",
			"TestApplyEditSymlinkOut": wineSymlinks},
	},
	"linux-aarch64": {
		"agent/sandbox": {"TestHelperRefusesMalformedArguments": qemuHelper, "TestHelperRunsAndConfines": qemuHelper,
			"TestHelperFallsBackWithoutNamespaces": qemuHelper},
		// Its other tests run Run without the helper (main_test.go).
		"agent/local": {
			"TestBlockedAndUnsandboxedRerun": qemuHelper, "TestSandboxReportsSignal": qemuHelper,
			"TestRunLeavesNothingSetsid":  "only the helper's PID namespace holds what leaves the process group; " + qemuHelper,
			"TestSandboxBuildsAndTestsGo": qemuLandlock, "TestSandboxRefusesWrites": qemuLandlock,
			"TestSandboxNetworkDeny": qemuLandlock, "TestSandboxHides": qemuLandlock,
			"TestSandboxProtectsSymlinkedEntries": qemuLandlock, "TestSandboxReportsCreatedProtectedEntries": qemuLandlock,
			"TestSandboxProtectsExtraRoots": qemuLandlock, "TestSandboxWritesAdditionalRoots": qemuLandlock,
			"TestSandboxProtectsAdditionalRoots": qemuLandlock, "TestBlockedNamesEveryRoot": qemuLandlock,
		},
	},
}

const (
	qemuLandlock   = "Landlock's system calls do not pass through qemu-user: it reads as absent (ABI 0)"
	wineRemove     = "Wine 8 does not implement FileDispositionInformationEx, the delete call of Go's os.Root (Remove fails: Invalid function)"
	qemuHelper     = "the sandbox helper is the test binary, which the code under test starts itself: with no binfmt_misc here the kernel cannot run an arm64 binary"
	wineSymlinks   = "Wine 8's CreateSymbolicLinkW is a stub: it reports success and makes no link"
	winePowerShell = "Wine 8's powershell.exe is a stub that runs nothing and exits 0"
)

// Each platform package's tests, cross-built for windows/amd64 with cgo,
// run under Wine.
func TestWindowsPackagesUnderWine(t *testing.T) {
	wine, env := testenv.Wine(t)
	runEmulated(t, "windows-x86_64", func(exe string) *exec.Cmd {
		cmd := exec.Command(wine, exe)
		cmd.Env = env
		return cmd
	})
}

// Each platform package's tests, cross-built for linux/arm64 with cgo and
// linked static (no arm64 loader needed), run under qemu-user.
func TestLinuxArm64PackagesUnderQemu(t *testing.T) {
	qemu := testenv.Program(t, "qemu-aarch64-static")
	runEmulated(t, "linux-aarch64", func(exe string) *exec.Cmd {
		cmd := exec.Command(qemu, exe)
		// No binfmt_misc here: a test that starts itself again needs
		// to be told to go through qemu (testenv.Self).
		cmd.Env = append(os.Environ(), testenv.EmulatorEnv+"="+qemu)
		return cmd
	})
}

// runEmulated builds platformPackages' tests for platform and runs each
// binary through start, holding it to gaps.
func runEmulated(t *testing.T, platform string, start func(exe string) *exec.Cmd) {
	root := testenv.RepoRoot(t)
	tg := target(t, platform)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	// A cleanup, not a defer: the parallel subtests run after this returns.
	t.Cleanup(cancel)
	cc, err := DefaultCC(ctx, root, tg)
	if err != nil {
		t.Fatal(err)
	}
	// One go test -c for all of them: the packages build in parallel and,
	// with -trimpath, from the same build cache as crossbuild.sh's.
	out := t.TempDir()
	args := []string{"test", "-c", "-trimpath", "-o", out + string(filepath.Separator)}
	if tg.GOOS == "linux" {
		args = append(args, "-tags", buildflags.Tags, "-ldflags", "-linkmode external -extldflags -static")
	}
	for _, p := range platformPackages {
		args = append(args, "./"+p)
	}
	build := exec.CommandContext(ctx, "go", args...)
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=1", "GOOS="+tg.GOOS, "GOARCH="+tg.GOARCH, "CC="+cc, "GOFLAGS=")
	began := time.Now()
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c for %s: %v\n%s", platform, err, b)
	}
	t.Logf("built %d %s test binaries in %v", len(platformPackages), platform, time.Since(began).Round(time.Second))
	ext := ""
	if tg.GOOS == "windows" {
		ext = ".exe"
	}
	for _, p := range platformPackages {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(out, filepath.Base(p)+".test"+ext)
			run := func(flags ...string) (string, error) {
				cmd := start(exe)
				cmd.Args = append(cmd.Args, append([]string{"-test.timeout=5m"}, flags...)...)
				// Strict as under test.sh, in a bare go test too: the gaps
				// are failures, and a test that skips for a missing
				// program would read as one that passes now.
				if cmd.Env == nil {
					cmd.Env = os.Environ()
				}
				// Clipped: start may hand every binary the same slice.
				cmd.Env = append(slices.Clip(cmd.Env), "TANDEM_TEST_STRICT=1")
				// In its package directory, as go test runs it, for testdata.
				cmd.Dir = filepath.Join(root, filepath.FromSlash(p))
				b, err := cmd.CombinedOutput()
				return string(b), err
			}
			g := gaps[platform][p]
			_, whole := g["*"]
			names := slices.Sorted(maps.Keys(g))
			if !whole {
				var flags []string
				if len(g) > 0 {
					flags = []string{"-test.skip=" + anchored(names)}
				}
				if b, err := run(flags...); err != nil {
					t.Errorf("%s on %s: %v\n%s", p, platform, err, b)
				}
			}
			if len(g) == 0 {
				return
			}
			var flags []string
			if !whole {
				flags = []string{"-test.run=" + anchored(names)}
			}
			b, err := run(flags...)
			failing := failed(b)
			switch {
			case err == nil:
				t.Errorf("%s on %s: the gaps %q pass now: take them off the list", p, platform, names)
			case len(failing) == 0:
				// Not a test failing but the binary not running at all.
				t.Errorf("%s on %s: %v, and no test reported failing\n%s", p, platform, err, b)
			default:
				for _, name := range names {
					if name != "*" && !slices.Contains(failing, name) {
						t.Errorf("%s on %s: %s passes now: take it off the gaps list", p, platform, name)
					}
				}
				for _, name := range names {
					t.Logf("%s: known gap on %s: %s: %s", p, platform, name, g[name])
				}
				t.Logf("%s: failing on %s as known: %s", p, platform, strings.Join(failing, " "))
			}
		})
	}
}

// anchored is a -test.run pattern matching exactly the named tests.
func anchored(tests []string) string {
	return "^(" + strings.Join(tests, "|") + ")$"
}

var failLine = regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)

// failed names the top-level tests a test binary's output reports failed.
func failed(out string) []string {
	var names []string
	for _, m := range failLine.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return names
}
