package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// chunkText joins the agent_message_chunk texts the client got.
func chunkText(msgs []rpcMsg) string {
	var b strings.Builder
	for _, u := range updates(msgs) {
		if u.Update.SessionUpdate == "agent_message_chunk" {
			var c struct{ Text string }
			json.Unmarshal(u.Update.Content, &c)
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// TestRulesThroughLSP runs tandem lsp over stdio: a deny rule in
// .tandem/settings.local.json refuses a command without asking, "Always
// allow" through tandem/requestPermission saves its rule beside it and the
// next matching command does not ask, and /permissions lists both with the
// file they are in.
func TestRulesThroughLSP(t *testing.T) {
	t.Parallel()
	run := func(id, command string) llmtest.Reply {
		args, _ := json.Marshal(map[string]string{"command": command})
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: id, Name: "run_command", Args: string(args)}}}
	}
	caps := map[string]any{"experimental": map[string]any{"tandem": map[string]any{"permissions": true}}}
	f := newFixture(t, caps, "code",
		run("p1", "printf x"), run("e1", "echo -n one"), run("e2", "echo -n two"), llmtest.Reply{Text: []string{"done"}})
	if err := os.MkdirAll(filepath.Join(f.root, ".tandem"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(".tandem/settings.local.json", `{"permissions": {"deny": ["Bash(printf:*)"]}}`)
	var asked []string
	f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		if method != "tandem/requestPermission" {
			return nil, &rpcError{Code: -32601, Message: "unexpected " + method}
		}
		asked = append(asked, string(params))
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_always"}}, nil
	})
	if _, err := f.prompt("run things"); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "echo -n one") || !strings.Contains(asked[0], "Always allow `echo …` in this project") {
		t.Fatalf("asked %d times: %q; want once, for echo one, offering the echo rule", len(asked), asked)
	}
	if r, _ := f.toolResultText("p1"); !strings.Contains(r, "run_command(printf:*)") || !strings.Contains(r, ".tandem/settings.local.json") {
		t.Errorf("printf result %q, want the deny rule and its file", r)
	}
	saved := f.disk(".tandem/settings.local.json")
	if !strings.Contains(saved, `"run_command(echo:*)"`) || !strings.Contains(saved, `"Bash(printf:*)"`) {
		t.Errorf("settings.local.json: %s", saved)
	}

	seen := len(f.c.messages())
	if _, err := f.prompt("/permissions"); err != nil {
		t.Fatal(err)
	}
	out := chunkText(f.c.messages()[seen:])
	for _, w := range []string{"deny:\n  Bash(printf:*) — .tandem/settings.local.json", "allow:\n  run_command(echo:*) — .tandem/settings.local.json"} {
		if !strings.Contains(out, w) {
			t.Errorf("/permissions lacks %q:\n%s", w, out)
		}
	}
}

// TestProjectRulesConsentByMessageBox: a client with only
// window/showMessageRequest is shown the project's allow rules in the
// message itself; accepting them lets their command run unasked.
func TestProjectRulesConsentByMessageBox(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"window": map[string]any{"showMessage": map[string]any{}}}
	args, _ := json.Marshal(map[string]string{"command": "touch made.txt"})
	f := newFixture(t, caps, "code",
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "t1", Name: "run_command", Args: string(args)}}}, llmtest.Reply{Text: []string{"done"}})
	if err := os.MkdirAll(filepath.Join(f.root, ".tandem"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(".tandem/settings.json", `{"permissions": {"allow": ["Bash(touch:*)"]}}`)
	var messages []string
	f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		if method != "window/showMessageRequest" {
			return nil, &rpcError{Code: -32601, Message: "unexpected " + method}
		}
		var p struct{ Message string }
		json.Unmarshal(params, &p)
		messages = append(messages, p.Message)
		return map[string]any{"title": "Always allow these rules in this project"}, nil
	})
	if _, err := f.prompt("make a file"); err != nil {
		t.Fatal(err)
	}
	if len(messages) != 1 || !strings.Contains(messages[0], "Bash(touch:*) (.tandem/settings.json)") {
		t.Fatalf("message boxes %q, want one listing the rule", messages)
	}
	if _, err := os.Stat(filepath.Join(f.root, "made.txt")); err != nil {
		t.Errorf("the accepted rule did not let touch run: %v", err)
	}
}
