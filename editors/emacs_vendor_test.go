package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/pathx"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestEmacsDepsAreVendored runs vendored-deps.sh with nothing to fetch
// from (an empty cache and home, no git mirrors): the directories it gives
// Emacs are the vendored ones beside the repository, at exactly the
// commits editors/emacs/README.md pins.
func TestEmacsDepsAreVendored(t *testing.T) {
	t.Parallel()
	script, err := filepath.Abs(filepath.Join("emacs", "test", "vendored-deps.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script)
	empty := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+empty, "XDG_CACHE_HOME="+empty, "TANDEM_TEST_CACHE="+empty,
		"TANDEM_GIT_MIRRORS="+filepath.Join(empty, "none"))
	cmd.Dir = empty
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("%v: %s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	vendor, err := filepath.EvalSymlinks(filepath.Join(testenv.RepoRoot(t), "..", "shared", "vendor", "emacs"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("emacs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The pins table: | [owner/name](…) | version | `commit` | date |
	pins := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| \\[[^/]+/([^\\]]+)\\]\\([^)]*\\) \\| [^|]+ \\| `([0-9a-f]{40})`").FindAllStringSubmatch(string(readme), -1) {
		pins[m[1]] = m[2]
	}
	if len(pins) != 3 {
		t.Fatalf("README pins %v, want agent-shell, acp.el and shell-maker", pins)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) != len(pins) {
		t.Fatalf("got %q, want one folder per pin %v", dirs, pins)
	}
	for _, d := range dirs {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pathx.Within(vendor, real); !ok {
			t.Errorf("%s is not under ../shared/vendor/emacs", d)
		}
		name, commit, _ := strings.Cut(filepath.Base(d), "@")
		if pins[name] != commit {
			t.Errorf("%s: README pins %s at %q", d, name, pins[name])
		}
		delete(pins, name)
	}
	if len(pins) != 0 {
		t.Errorf("no folder for %v", pins)
	}
}

// TestEmacsDepsMissingSayWhich runs a copy of vendored-deps.sh in a
// made-up checkout whose ../shared lacks one package and holds another
// at the wrong commit: it fails, naming both and where they belong.
func TestEmacsDepsMissingSayWhich(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("emacs", "test", "vendored-deps.sh"))
	if err != nil {
		t.Fatal(err)
	}
	top := t.TempDir()
	script := filepath.Join(top, "repo", "editors", "emacs", "test", "vendored-deps.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, src, 0o755); err != nil {
		t.Fatal(err)
	}
	vendor := filepath.Join(top, "shared", "vendor", "emacs")
	put := func(dir, file, source string) {
		t.Helper()
		d := filepath.Join(vendor, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{file: ";; stub\n", "SOURCE": source} {
			if err := os.WriteFile(filepath.Join(d, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	const shell = "79181104659ce70900a1ccadaed9ffa67be49924"
	put("agent-shell@264dc76e674bf38e5e42370a1a706e3785f90678", "agent-shell.el",
		"xenodium/agent-shell 264dc76e674bf38e5e42370a1a706e3785f90678\n")
	// The folder's name is right, its SOURCE says it holds another commit.
	put("shell-maker@"+shell, "shell-maker.el", "xenodium/shell-maker 0000000000000000000000000000000000000000\n")
	out, err := exec.Command(script).CombinedOutput()
	if err == nil {
		t.Fatalf("succeeded with acp.el missing: %s", out)
	}
	for _, want := range []string{"../shared/vendor/emacs", "xenodium/acp.el@9737a9678a658a3289229d7d37459c84db1eef24",
		"xenodium/shell-maker@" + shell, "SOURCE does not name"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the message lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "agent-shell@") {
		t.Errorf("the message names agent-shell, which is there:\n%s", out)
	}
}
