package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// diskText is the file every kit's edit test starts from. Line 2 is what
// the editor changes (unsaved) to "greetings world" before asking.
const diskText = "package main\nhello world\nlast line\n"

// tandemBin is the binary under test: TANDEM_TEST_BIN when set (to try a
// kit against a binary built elsewhere), else a fresh build of this tree.
func tandemBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TANDEM_TEST_BIN"); p != "" {
		return p
	}
	return testenv.Tandem(t)
}

// workspace makes a git-rooted directory holding sub/hello.txt and returns
// the root and the file. Symlinks are resolved so paths the editors report
// compare equal to ours.
func workspace(t *testing.T) (root, file string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(root, "sub", "hello.txt")
	for _, dir := range []string{filepath.Join(root, ".git"), filepath.Dir(file)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte(diskText), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, file
}

// fakeModel starts the fake model on a script from testdata and returns
// it with the environment that points tandem at it.
func fakeModel(t *testing.T, script string) (*llmtest.Server, []string) {
	t.Helper()
	sc, err := llmtest.LoadScript(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.Use(sc)
	home := t.TempDir()
	// An editor may exit before the tandem it started has finished closing
	// its sessions; wait for that tandem, or the home directory's removal
	// races its last writes. (Cleanups run last first: this one before
	// the directory goes.)
	t.Cleanup(func() { testenv.WaitNoProcess(t, "TANDEM_HOME="+home, 10*time.Second) })
	return srv, testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic))
}

// requestText is every text part of a model request, for checking what
// context reached the model.
func requestText(r *llmtest.Request) string {
	var s string
	for _, m := range r.Messages {
		for _, p := range m.Content {
			s += p.Text + "\n"
		}
	}
	return s
}

// run runs cmd, failing the test with its output if it fails.
func run(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	return out
}
