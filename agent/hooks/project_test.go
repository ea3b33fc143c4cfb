package hooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

const consentTitle = "Run the hook commands this repository's settings name"

// A repository's hooks (.claude/settings.json, as Claude Code keeps them)
// run only once the user agrees: refused, the call runs as if they were
// not there; accepted "always", they run, and a later session does not ask
// again.
func TestProjectHooksWaitForConsent(t *testing.T) {
	for _, c := range []struct {
		answer string
		runs   bool
	}{{"reject_once", false}, {"allow_always", true}} {
		t.Run(c.answer, func(t *testing.T) {
			home, root, _ := dirs(t)
			hooksFile(t, filepath.Join(root, ".claude", "settings.json"), map[string]any{
				"PreToolUse": []any{group("Bash", script(t, "project-guard.sh"))},
			})
			srv := llmtest.NewServer(t)
			srv.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo unguarded"}`}}},
				llmtest.Reply{Text: []string{"ok"}},
			)
			e := startACP(t, home, root, srv, c.answer)
			sid := e.newSession(t, root, "full-auto")
			e.prompt(t, sid, "go")
			if !slices.Contains(e.titles(), consentTitle) {
				t.Fatalf("not asked; asked %q", e.titles())
			}
			got := srv.Requests()[1].LastUserText()
			if ran := strings.Contains(got, "the project hook ran"); ran != c.runs {
				t.Errorf("project hook ran=%v, want %v: %q", ran, c.runs, got)
			}
			if !c.runs && !strings.Contains(got, "unguarded") {
				t.Errorf("the command did not run: %q", got)
			}
			if !c.runs {
				return
			}
			// Remembered for this exact set of hooks.
			srv.Enqueue(llmtest.Reply{Text: []string{"again"}})
			e2 := startACP(t, home, root, srv, "reject_once")
			e2.prompt(t, e2.newSession(t, root, "full-auto"), "hello")
			if slices.Contains(e2.titles(), consentTitle) {
				t.Error("asked again for hooks already accepted always")
			}
		})
	}
}

// A Claude Code plugin folder, installed and enabled with the CLI and not
// changed: its command and skill load and its PreToolUse hook (a script
// under ${CLAUDE_PLUGIN_ROOT}) refuses rm.
func TestClaudeCodePlugin(t *testing.T) {
	for _, kind := range []string{"acp", "lsp"} {
		t.Run(kind, func(t *testing.T) { testClaudeCodePlugin(t, kind) })
	}
}

func testClaudeCodePlugin(t *testing.T, kind string) {
	home, root, _ := dirs(t)
	cc, err := filepath.Abs(filepath.Join("testdata", "cc-guard"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"install", cc}, {"enable", "cc-guard"}} {
		cmd := exec.Command(testenv.Tandem(t), append([]string{"plugin"}, args...)...)
		cmd.Env = append(os.Environ(), "TANDEM_HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tandem plugin %v: %v\n%s", args, err, out)
		}
	}
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"rm -rf build"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	e := startFront(t, kind, home, root, srv, "allow_once")
	sid := e.newSession(t, root, "full-auto")
	e.prompt(t, sid, "/cc-guard:tidy the build folder")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests\n%s", len(reqs), e.stderr.String())
	}
	if got := reqs[0].LastUserText(); !strings.Contains(got, "Tidy up the build folder") {
		t.Errorf("command: %q", got)
	}
	if !strings.Contains(reqs[0].System, "cc-guard:careful") {
		t.Errorf("skill not offered in the system prompt")
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "cc-guard refuses rm") {
		t.Errorf("the plugin's hook did not refuse rm: %q\n%s", got, e.said())
	}
	if slices.Contains(e.titles(), consentTitle) {
		t.Error("an enabled plugin's hooks asked for the repository consent")
	}
}
