package editors

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// TestVSCodeExtension builds the extension the way its README says
// (`npm ci` from the committed lock file when node_modules is missing),
// runs its unit tests, packages the .vsix with `npm run package` (esbuild
// bundle, vsce), and then installs that .vsix into a real VS Code
// (code-server) driven through Chromium (vscodeserver_test.go).
func TestVSCodeExtension(t *testing.T) {
	t.Parallel()
	testenv.Program(t, "node")
	npm := testenv.Program(t, "npm")
	dir, err := filepath.Abs("vscode")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	npmRun := func(args ...string) string {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = dir
		return string(run(t, cmd))
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@vscode", "vsce", "package.json")); err != nil {
		npmRun("ci", "--no-audit", "--no-fund", "--loglevel=error")
	}
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

	npmRun("run", "package")
	vsix := filepath.Join(dir, "tandem-vscode.vsix")
	if st, err := os.Stat(vsix); err != nil || st.Size() == 0 {
		t.Fatalf("npm run package made no .vsix: %v", err)
	}
	t.Run("code-server", func(t *testing.T) { codeServerE2E(t, vsix) })
}
