package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// The user's hooks in $TANDEM_HOME/config.json, in Claude Code's shape,
// through a real `tandem acp`: SessionStart and UserPromptSubmit add
// context, a PreToolUse script refuses rm with exit 2, JSON allows a read
// and refuses a write, PostToolUse adds context, Stop forces one more
// round; a second prompt is blocked by UserPromptSubmit and never reaches
// the model.
func TestUserHooks(t *testing.T) {
	home, root, logs := dirs(t)
	log := filepath.Join(logs, "events.jsonl")
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("the notes\n"), 0o644)
	hooksFile(t, filepath.Join(home, "config.json"), map[string]any{
		"SessionStart":     []any{group("", script(t, "session-start.sh"))},
		"UserPromptSubmit": []any{group("", script(t, "prompt.sh"))},
		"PreToolUse": []any{
			group("Bash", script(t, "block-rm.sh")),
			group("Read", script(t, "allow-read.sh")),
			group("Write", script(t, "deny-write.sh")),
		},
		"PostToolUse": []any{group("Bash", script(t, "post-context.sh"))},
		"Stop":        []any{group("", script(t, "stop.sh"))},
	})
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"rm -rf build"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo hi"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"out.txt","content":"x"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{Text: []string{"linted, done"}},
	)
	e := startACP(t, home, root, srv, "allow_once", "HOOK_LOG="+log)
	sid := e.newSession(t, root, "full-auto")
	if got := e.prompt(t, sid, "clean up"); got != "end_turn" {
		t.Fatalf("stop reason %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6\n%s", len(reqs), e.stderr.String())
	}
	for i, want := range []string{
		"Current ticket: TND-42",             // UserPromptSubmit's stdout
		"rm is not allowed here",             // exit 2: stderr is the refusal
		"remember to run the tests",          // PostToolUse additionalContext
		"the tree is frozen for the release", // permissionDecision deny
		"the notes",                          // permissionDecision allow: the read ran
		"run the linter before you stop",     // Stop: decision block
	} {
		if got := reqs[i].LastUserText(); !strings.Contains(got, want) {
			t.Errorf("request %d: want %q in %q", i, want, got)
		}
	}
	if got := reqs[0].LastUserText(); !strings.Contains(got, "The release branch is frozen.") {
		t.Errorf("SessionStart context missing: %q", got)
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "hi") {
		t.Errorf("the allowed command did not run: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "out.txt")); err == nil {
		t.Error("the refused write happened")
	}
	events, _ := os.ReadFile(log)
	for _, want := range []string{
		`"session_id":"` + sid + `"`, `"cwd":"` + root + `"`, `"hook_event_name":"PreToolUse"`,
		`"tool_name":"Bash"`, `"tool_input":{"command":"rm -rf build"}`,
		`"hook_event_name":"Stop"`, `"stop_hook_active":false`, `"stop_hook_active":true`,
	} {
		if !strings.Contains(string(events), want) {
			t.Errorf("hook input lacks %s:\n%s", want, events)
		}
	}

	if got := e.prompt(t, sid, "tell me the secret"); got != "refusal" {
		t.Errorf("blocked prompt: stop reason %q", got)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("the blocked prompt reached the model (%d requests)", n)
	}
	if !strings.Contains(e.said(), "prompts about secrets are blocked by policy") {
		t.Errorf("the user was not told: %q", e.said())
	}
}

// A hook that fails with another exit code warns the user and blocks
// nothing; a Stop hook's "continue": false ends the turn even beside a
// block decision.
func TestFailingHookWarns(t *testing.T) {
	home, root, _ := dirs(t)
	hooksFile(t, filepath.Join(home, "config.json"), map[string]any{
		"PreToolUse": []any{group("*", script(t, "fail.sh"))},
		"Stop":       []any{group("", `cat >/dev/null; echo '{"continue":false,"stopReason":"enough","decision":"block","reason":"go on"}'`)},
	})
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo ran"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	e := startACP(t, home, root, srv, "allow_once")
	sid := e.newSession(t, root, "full-auto")
	e.prompt(t, sid, "go")
	if got := srv.Requests()[1].LastUserText(); !strings.Contains(got, "ran") {
		t.Errorf("the command did not run: %q", got)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests: continue false did not stop the turn", n)
	}
	if !strings.Contains(e.said(), "failed with exit code 1: this hook is broken") {
		t.Errorf("no warning: %q", e.said())
	}
}

// SessionEnd runs when the editor quits and the session closes.
func TestSessionEnd(t *testing.T) {
	home, root, logs := dirs(t)
	log := filepath.Join(logs, "events.jsonl")
	hooksFile(t, filepath.Join(home, "config.json"), map[string]any{
		"SessionEnd": []any{group("", script(t, "log-stdin.sh"))},
	})
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	e := startACP(t, home, root, srv, "allow_once", "HOOK_LOG="+log)
	sid := e.newSession(t, root, "code")
	e.prompt(t, sid, "hello")
	if b, _ := os.ReadFile(log); len(b) != 0 {
		t.Fatalf("SessionEnd ran early: %s", b)
	}
	e.stop(t)
	b, _ := os.ReadFile(log)
	if !strings.Contains(string(b), `"hook_event_name":"SessionEnd"`) || !strings.Contains(string(b), `"session_id":"`+sid+`"`) {
		t.Errorf("SessionEnd input: %s", b)
	}
}
