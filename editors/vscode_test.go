package editors

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

// TestVSCodeExtension builds the extension the way its README says
// (`npm ci` from the committed lock file when node_modules is missing,
// `npm run compile`) and runs `npm test`: the unit tests on a mocked vscode
// module and the end-to-end test that drives the real `tandem lsp` through
// vscode-languageserver-protocol against the fake model.
func TestVSCodeExtension(t *testing.T) {
	t.Parallel()
	testenv.Program(t, "node")
	npm := testenv.Program(t, "npm")
	bin := tandemBin(t)
	model, env := fakeModel(t, "edit.json")
	dir, err := filepath.Abs("vscode")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	npmRun := func(args ...string) string {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = dir
		cmd.Env = append(env, "TANDEM_BIN="+bin)
		return string(run(t, cmd))
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-languageclient", "package.json")); err != nil {
		npmRun("ci", "--no-audit", "--no-fund", "--loglevel=error")
	}
	npmRun("run", "compile")
	out := npmRun("test")

	// node:test's TAP summary: every test ran (none skipped) and passed.
	counts := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^# (tests|pass|fail|skipped) (\d+)$`).FindAllStringSubmatch(out, -1) {
		counts[m[1]] = m[2]
	}
	if counts["tests"] == "" || counts["tests"] == "0" || counts["pass"] != counts["tests"] ||
		counts["fail"] != "0" || counts["skipped"] != "0" {
		t.Fatalf("npm test summary %v, want all passed and none skipped:\n%s", counts, out)
	}
	if !strings.Contains(out, "ok 1 - tandem lsp: a prompt streams updates") {
		t.Errorf("the end-to-end test did not pass:\n%s", out)
	}
	if n := len(model.Requests()); n != 2 {
		t.Errorf("the fake model got %d requests, want the 2 of one edit turn", n)
	}
}
