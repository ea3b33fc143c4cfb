// Package release builds tandem's release into dist/: the binary for each
// platform (cgo, cross-compiled, stripped, reproducible, stamped), its
// archive, SHA256SUMS, the ACP Registry entry, the npm launcher with one
// package per platform, and the VS Code extension per platform plus one
// without a binary. `make release` runs it through ./internal/release/mkrelease.
package release

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/tandemhq/tandem/internal/buildflags"
)

// Target is one platform tandem is released for, named as the ACP Registry
// names it, with the names Go, npm and VS Code give it.
type Target struct {
	Platform     string // ACP Registry: linux-x86_64
	GOOS, GOARCH string
	NPMOS        string // package.json "os"
	NPMCPU       string // package.json "cpu"
	VSCode       string // vsce package --target
	// Static: linked with -extldflags -static (Linux's glibc, Windows'
	// mingw runtime); macOS has no static libSystem.
	Static bool
}

// Exe is the binary's file name on the target.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return "tandem.exe"
	}
	return "tandem"
}

// Archive is the release archive's file name.
func (t Target) Archive(version string) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return "tandem-" + version + "-" + t.Platform + ext
}

// Targets are every platform of a release.
var Targets = []Target{
	{Platform: "linux-x86_64", GOOS: "linux", GOARCH: "amd64", NPMOS: "linux", NPMCPU: "x64", VSCode: "linux-x64", Static: true},
	{Platform: "linux-aarch64", GOOS: "linux", GOARCH: "arm64", NPMOS: "linux", NPMCPU: "arm64", VSCode: "linux-arm64", Static: true},
	{Platform: "darwin-aarch64", GOOS: "darwin", GOARCH: "arm64", NPMOS: "darwin", NPMCPU: "arm64", VSCode: "darwin-arm64"},
	{Platform: "darwin-x86_64", GOOS: "darwin", GOARCH: "amd64", NPMOS: "darwin", NPMCPU: "x64", VSCode: "darwin-x64"},
	{Platform: "windows-x86_64", GOOS: "windows", GOARCH: "amd64", NPMOS: "win32", NPMCPU: "x64", VSCode: "win32-x64", Static: true},
}

// Options says what to release and where.
type Options struct {
	Root    string // the repository
	Out     string // dist/
	Version string // 1.2.3, no leading v
	Commit  string
	// Epoch is SOURCE_DATE_EPOCH: the build date stamped into the binary
	// and every timestamp in the archives, so two builds of one commit are
	// byte for byte the same.
	Epoch time.Time
	// BaseURL is where the archives are downloaded from, without the file
	// name (the registry entry's URLs).
	BaseURL string
	// Platforms limits the release to these targets; empty means all.
	Platforms []string
	// CC names the C compiler per platform; missing ones come from
	// DefaultCC.
	CC  map[string]string
	Log io.Writer
}

// Release writes everything into o.Out, which it empties first.
func Release(ctx context.Context, o Options) error {
	if o.Log == nil {
		o.Log = io.Discard
	}
	targets, err := selectTargets(o.Platforms)
	if err != nil {
		return err
	}
	// The npm and vsce steps run in other directories.
	if o.Root, err = filepath.Abs(o.Root); err != nil {
		return err
	}
	if o.Out, err = filepath.Abs(o.Out); err != nil {
		return err
	}
	if err := os.RemoveAll(o.Out); err != nil {
		return fmt.Errorf("emptying %s: %w", o.Out, err)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	docs, err := docFiles(o.Root, o.Log)
	if err != nil {
		return err
	}
	var archives []string
	bins := map[string]string{}
	for _, t := range targets {
		bin := filepath.Join(o.Out, "build", t.Platform, t.Exe())
		start := time.Now()
		if err := Build(ctx, o, t, bin); err != nil {
			return err
		}
		fmt.Fprintf(o.Log, "release: built %s in %s\n", t.Platform, time.Since(start).Round(time.Second))
		bins[t.Platform] = bin
		a := filepath.Join(o.Out, t.Archive(o.Version))
		if err := writeArchive(a, t, bin, docs, o.Epoch); err != nil {
			return fmt.Errorf("archiving %s: %w", t.Platform, err)
		}
		archives = append(archives, a)
	}
	_, err = writeSums(filepath.Join(o.Out, "SHA256SUMS"), archives)
	if err != nil {
		return err
	}
	if err := writeRegistryEntry(filepath.Join(o.Out, "acp-registry", "tandem"), o, targets); err != nil {
		return fmt.Errorf("the ACP Registry entry: %w", err)
	}
	if err := writeNPM(ctx, filepath.Join(o.Out, "npm"), o, targets, bins, docs); err != nil {
		return fmt.Errorf("the npm packages: %w", err)
	}
	if err := writeVSCode(ctx, filepath.Join(o.Out, "vscode"), o, targets, bins); err != nil {
		return fmt.Errorf("the VS Code extension: %w", err)
	}
	return nil
}

func selectTargets(names []string) ([]Target, error) {
	if len(names) == 0 {
		return Targets, nil
	}
	var out []Target
	for _, n := range names {
		found := false
		for _, t := range Targets {
			if t.Platform == n {
				out, found = append(out, t), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no platform %q (have linux-x86_64, linux-aarch64, darwin-aarch64, darwin-x86_64, windows-x86_64)", n)
		}
	}
	return out, nil
}

// docFiles are the files every archive carries beside the binary.
func docFiles(root string, log io.Writer) ([]string, error) {
	var out []string
	for _, name := range []string{"LICENSE", "README.md"} {
		p := filepath.Join(root, name)
		if _, err := os.Stat(p); err != nil {
			if name == "LICENSE" && os.IsNotExist(err) {
				// No licence has been chosen yet; the release says so
				// rather than inventing one.
				fmt.Fprintln(log, "release: warning: the repository has no LICENSE; the archives ship without one")
				continue
			}
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Build cross-compiles cmd/tandem for t into bin: cgo on (tree-sitter is
// C), -trimpath and an empty build id so that the binary depends only on
// the source and the toolchains, stripped, stamped with version, commit
// and date.
func Build(ctx context.Context, o Options, t Target, bin string) error {
	cc := o.CC[t.Platform]
	if cc == "" {
		var err error
		if cc, err = DefaultCC(ctx, o.Root, t); err != nil {
			return err
		}
	}
	ldflags := fmt.Sprintf("-s -w -buildid= -X main.version=%s -X main.commit=%s -X main.date=%s",
		o.Version, o.Commit, o.Epoch.UTC().Format(time.RFC3339))
	switch {
	case t.Static:
		ldflags = buildflags.StaticLDFlags + ldflags[len("-s -w"):]
	case t.GOOS == "darwin":
		// No -s on macOS: Go's linker turns it into ld's -x, which zig's
		// Mach-O linker refuses, so the symbol table stays (DWARF goes).
		ldflags = ldflags[len("-s "):]
	}
	args := []string{"build", "-trimpath", "-buildvcs=false", "-o", bin}
	if t.GOOS == "linux" {
		args = append(args, "-tags", buildflags.Tags)
	}
	args = append(args, "-ldflags", ldflags, "./cmd/tandem")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH, "CC="+cc,
		fmt.Sprintf("SOURCE_DATE_EPOCH=%d", o.Epoch.Unix()))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s (CC=%s): %w\n%s", t.Platform, cc, err, out)
	}
	return nil
}

// DefaultCC is the C cross compiler for t: $CC_<platform> (dashes as
// underscores) when set, else what scripts/toolchain.sh names (it installs
// the compiler first when it is missing), else Debian's cross compilers
// for Linux and Windows and zig cc from the toolchain cache for macOS.
func DefaultCC(ctx context.Context, root string, t Target) (string, error) {
	if cc := os.Getenv("CC_" + strings.ReplaceAll(t.Platform, "-", "_")); cc != "" {
		return cc, nil
	}
	script := filepath.Join(root, "scripts", "toolchain.sh")
	if _, err := os.Stat(script); err == nil {
		cmd := exec.CommandContext(ctx, "bash", script, "cc", t.GOOS, t.GOARCH)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("scripts/toolchain.sh cc %s %s: %w", t.GOOS, t.GOARCH, err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	native := t.GOOS == runtime.GOOS && t.GOARCH == runtime.GOARCH
	var cc string
	switch {
	case native:
		cc = "gcc"
	case t.GOOS == "linux" && t.GOARCH == "arm64":
		cc = "aarch64-linux-gnu-gcc"
	case t.GOOS == "linux" && t.GOARCH == "amd64":
		cc = "x86_64-linux-gnu-gcc"
	case t.GOOS == "windows":
		cc = "x86_64-w64-mingw32-gcc"
	case t.GOOS == "darwin":
		return zigCC(t)
	}
	if _, err := exec.LookPath(cc); err != nil {
		return "", fmt.Errorf("no C compiler for %s: %s is not installed (apt-get install the Debian cross compiler, or set CC_%s): %w",
			t.Platform, cc, strings.ReplaceAll(t.Platform, "-", "_"), err)
	}
	return cc, nil
}

// zigCC is `zig cc` for macOS from the toolchain cache
// (~/.cache/tandem-toolchain), where the toolchain script installs zig.
func zigCC(t Target) (string, error) {
	cache := os.Getenv("TANDEM_TOOLCHAIN")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "tandem-toolchain")
	}
	arch := "aarch64"
	if t.GOARCH == "amd64" {
		arch = "x86_64"
	}
	wrapper := filepath.Join(cache, "bin", "zig-cc-"+arch+"-macos")
	if _, err := os.Stat(wrapper); err != nil {
		return "", fmt.Errorf("no C compiler for %s: %s is missing (the toolchain script installs zig there), or set CC_%s: %w",
			t.Platform, wrapper, strings.ReplaceAll(t.Platform, "-", "_"), err)
	}
	return wrapper, nil
}
