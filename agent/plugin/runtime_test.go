package plugin_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

var hookPerms = map[string]any{"lifecycle": true, "tools": true, "systemPrompt": true}

// Two plugins in registration order (by name): a denies, a rewrites the
// command's arguments, b sees the rewrite and rewrites the result after a.
func TestHooksReduceInOrder(t *testing.T) {
	r := newRig(t)
	plugins := filepath.Join(r.home, "plugins")
	a := pyPlugin(t, plugins, "a-first", map[string]any{"permissions": hookPerms})
	b := pyPlugin(t, plugins, "b-second", map[string]any{"permissions": hookPerms})
	enable(t, r.home, "a-first", a, map[string]any{
		"hooks":          []string{"beforeToolCall", "afterToolCall"},
		"beforeToolCall": map[string]any{"deny": "forbidden", "reason": "no forbidden things", "append": []string{"command", " a"}},
		"afterToolCall":  map[string]any{"suffix": " [a]"},
	})
	enable(t, r.home, "b-second", b, map[string]any{
		"hooks":          []string{"beforeToolCall", "afterToolCall"},
		"beforeToolCall": map[string]any{"append": []string{"command", " b"}},
		"afterToolCall":  map[string]any{"suffix": " [b]"},
	})
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo forbidden"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo hi"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "go")
	reqs := r.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	denied := reqs[1].LastUserText()
	if !strings.Contains(denied, "a-first plugin refused it: no forbidden things") {
		t.Errorf("deny not reported to the model: %q", denied)
	}
	ran := reqs[2].LastUserText()
	if !strings.Contains(ran, "hi a b") || !strings.HasSuffix(strings.TrimSpace(ran), "[a] [b]") {
		t.Errorf("rewrites not applied in order: %q", ran)
	}
	// b never saw the denied call: the first deny ends the seam.
	if got := calls(t, r.home, "b-second"); slices.Contains(got, "hooks/afterToolCall") && strings.Count(strings.Join(got, " "), "hooks/beforeToolCall") != 1 {
		t.Errorf("b saw: %v", got)
	}
}

// A plugin tool is offered to the model, asks in code mode, and runs; the
// system prompt carries the transform, the same bytes on every request.
func TestToolAndTransform(t *testing.T) {
	r := newRig(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "shout", map[string]any{"permissions": hookPerms})
	enable(t, r.home, "shout", dir, map[string]any{"tool": "upper", "promptRule": "Always be loud."})
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__shout__upper", Args: `{"text":"quiet"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, h := r.session(t, agent.ModeCode)
	prompt(t, s, "go")
	reqs := r.srv.Requests()
	if !slices.Contains(reqs[0].Tools, "plugin__shout__upper") {
		t.Fatalf("tool not offered: %v", reqs[0].Tools)
	}
	if got := reqs[1].LastUserText(); got != "QUIET" {
		t.Errorf("tool result %q", got)
	}
	if len(h.asked) != 1 || !strings.Contains(h.asked[0].ToolCall.Title, "upper (shout plugin)") {
		t.Errorf("asks: %+v", h.asked)
	}
	for _, q := range reqs {
		if !strings.HasSuffix(q.System, "\n\nAlways be loud.") || q.System != reqs[0].System {
			t.Errorf("system prompt %q", q.System)
		}
	}
	if n := strings.Count(strings.Join(calls(t, r.home, "shout"), " "), "systemPrompt/transform"); n != 1 {
		t.Errorf("transform ran %d times, want once", n)
	}
	log, _ := os.ReadFile(filepath.Join(r.home, "logs", "plugin-shout.log"))
	if !strings.Contains(string(log), "initialized for "+s.ID()) {
		t.Errorf("plugin log: %s", log)
	}
}

// A hook past its budget is skipped; a plugin killed mid-hook and one that
// prints garbage lose their hooks (and tools) and are restarted after a
// backoff; the turn completes every time.
func TestFailingPlugins(t *testing.T) {
	for _, tc := range []struct {
		name   string
		act    map[string]any
		faulty bool
	}{
		{"over budget", map[string]any{"sleepMs": 400, "deny": "echo"}, false},
		{"killed mid-hook", map[string]any{"crash": true}, true},
		{"garbage", map[string]any{"garbage": true, "deny": "echo"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			m := map[string]any{"permissions": hookPerms, "hookTimeoutMs": 100}
			dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "bad", m)
			enable(t, r.home, "bad", dir, map[string]any{"hooks": []string{"beforeToolCall"}, "tool": "upper", "beforeToolCall": tc.act})
			r.srv.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo ran"}`}}},
				llmtest.Reply{Text: []string{"done"}},
			)
			s, _ := r.session(t, agent.ModeFullAuto)
			// The clock starts once the plugin is up: the bound is on what
			// its failing hook costs the turn (a budget of 100ms, where a
			// turn stuck on the plugin would take the start timeout or
			// more), not on how long python takes to start.
			r.waitUp(t, s.ID(), "bad", 1)
			start := time.Now()
			if got := prompt(t, s, "go"); got != agent.StopEndTurn {
				t.Fatalf("stop %q", got)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("turn took %v", took)
			}
			reqs := r.srv.Requests()
			if got := reqs[1].LastUserText(); !strings.Contains(got, "ran") {
				t.Errorf("the command did not run: %q", got)
			}
			log, _ := os.ReadFile(filepath.Join(r.home, "logs", "plugin-bad.log"))
			if !tc.faulty && !strings.Contains(string(log), "over its budget; skipped") {
				t.Errorf("no budget line in the log: %s", log)
			}
			if tc.faulty {
				if !strings.Contains(string(log), "plugin failed") {
					t.Errorf("no failure in the log: %s", log)
				}
				if slices.Contains(reqs[1].Tools, "plugin__bad__upper") {
					t.Errorf("the failed plugin's tool is still offered: %v", reqs[1].Tools)
				}
				// Restarted after the backoff, it offers its tool again.
				r.waitUp(t, s.ID(), "bad", 2)
				if log, _ := os.ReadFile(filepath.Join(r.home, "logs", "plugin-bad.log")); strings.Count(string(log), "initialized for "+s.ID()) != 2 {
					t.Errorf("not initialized twice for the session: %s", log)
				}
				r.srv.Enqueue(llmtest.Reply{Text: []string{"again"}})
				prompt(t, s, "again")
				if got := r.srv.Requests()[2].Tools; !slices.Contains(got, "plugin__bad__upper") {
					t.Errorf("the restarted plugin's tool is not back: %v", got)
				}
			}
		})
	}
}

// The file-edit hooks see every edit with the file's old content, before
// it is written; a refusal keeps the file as it was. This is what an undo
// plugin builds on.
func TestFileEditHooks(t *testing.T) {
	r, rec := newRig(t), newRecorder(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "snap", map[string]any{"permissions": hookPerms})
	enable(t, r.home, "snap", dir, map[string]any{"hooks": []string{"beforeFileEdit", "afterFileEdit", "turnEnd"}, "denyEdit": "frozen", "recordTo": rec.addr})
	os.WriteFile(filepath.Join(r.root, "a.txt"), []byte("old\n"), 0o644)
	os.WriteFile(filepath.Join(r.root, "frozen.txt"), []byte("keep\n"), 0o644)
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"new\n"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"frozen.txt","content":"gone\n"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "edit")
	if b, _ := os.ReadFile(filepath.Join(r.root, "frozen.txt")); string(b) != "keep\n" {
		t.Errorf("frozen.txt: %q", b)
	}
	if got := r.srv.Requests()[2].LastUserText(); !strings.Contains(got, "that file is frozen") {
		t.Errorf("refusal: %q", got)
	}
	// Observers are notifications, which may trail the turn: wait for the
	// last one to be recorded.
	rec.await("hooks/turnEnd")
	raw, _ := os.ReadFile(filepath.Join(r.home, "plugin-data", "snap", "calls.jsonl"))
	var before []map[string]any
	var methods []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var c struct {
			Method string
			Params map[string]any
		}
		json.Unmarshal([]byte(line), &c)
		methods = append(methods, c.Method)
		if c.Method == "hooks/beforeFileEdit" {
			before = append(before, c.Params)
		}
	}
	if len(before) != 2 || before[0]["before"] != "old\n" || before[0]["after"] != "new\n" || before[0]["exists"] != true {
		t.Errorf("beforeFileEdit: %v", before)
	}
	// The refused edit never reached the editor, so only one is observed.
	if got := strings.Count(strings.Join(methods, " "), "hooks/afterFileEdit"); got != 1 || !slices.Contains(methods, "hooks/turnEnd") {
		t.Errorf("observed: %v", methods)
	}
}

// beforeAsk refuses an edit before the user is asked.
func TestBeforeAskDeny(t *testing.T) {
	r := newRig(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "gate", map[string]any{"permissions": hookPerms})
	enable(t, r.home, "gate", dir, map[string]any{"hooks": []string{"beforeAsk"}, "denyAsk": "not today"})
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"n.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, h := r.session(t, agent.ModeCode)
	prompt(t, s, "write")
	if len(h.asked) != 0 {
		t.Errorf("the user was asked: %+v", h.asked)
	}
	if _, err := os.Stat(filepath.Join(r.root, "n.txt")); err == nil {
		t.Error("the file was written")
	}
	if got := r.srv.Requests()[1].LastUserText(); !strings.Contains(got, "gate plugin refused it: not today") {
		t.Errorf("result %q", got)
	}
}

// A plugin's approval stands in for the user's where an allow rule could,
// and not for a protected file.
func TestBeforeAskApprove(t *testing.T) {
	r := newRig(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "yes", map[string]any{"permissions": hookPerms})
	enable(t, r.home, "yes", dir, map[string]any{"hooks": []string{"beforeAsk"}, "approveAsk": true})
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"n.txt","content":"x"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"AGENTS.md","content":"x"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, h := r.session(t, agent.ModeCode)
	prompt(t, s, "write")
	if b, err := os.ReadFile(filepath.Join(r.root, "n.txt")); err != nil || string(b) != "x" {
		t.Errorf("n.txt = %q, %v", b, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.asked) != 1 || !strings.Contains(h.asked[0].ToolCall.Title, "AGENTS.md") {
		t.Errorf("asked %+v, want only the protected AGENTS.md", h.asked)
	}
}

// The observing hooks arrive as notifications, in the turn's order.
func TestObservers(t *testing.T) {
	r, rec := newRig(t), newRecorder(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "watch", map[string]any{"permissions": map[string]any{"events": true}})
	observers := []string{"userMessage", "turnStart", "modelRequestStart", "assistantMessage", "modelRequestFinish", "turnEnd"}
	enable(t, r.home, "watch", dir, map[string]any{"hooks": append([]string{"beforeToolCall"}, observers...), "recordTo": rec.addr})
	r.srv.Enqueue(llmtest.Reply{Text: []string{"hello there"}})
	s, _ := r.session(t, agent.ModeCode)
	prompt(t, s, "hi")
	rec.await("hooks/turnEnd")
	got := calls(t, r.home, "watch")
	var want []string
	for _, o := range observers {
		want = append(want, "hooks/"+o)
	}
	// initialize (and what the test plugin notes of it), then the
	// observers in order; beforeToolCall needs
	// lifecycle, which events does not grant.
	if len(got) < 2 || !slices.Equal(got[2:], want) {
		t.Errorf("observed %v", got)
	}
	raw, _ := os.ReadFile(filepath.Join(r.home, "plugin-data", "watch", "calls.jsonl"))
	if !strings.Contains(string(raw), `"text": "hello there"`) || !strings.Contains(string(raw), `"model": "m"`) {
		t.Errorf("payloads: %s", raw)
	}
}

// host/writeFile, host/listFiles and host/readFile reach the data folder
// and the filesystem grants, and nothing else.
func TestHostFiles(t *testing.T) {
	r := newRig(t)
	os.MkdirAll(filepath.Join(r.root, "granted"), 0o755)
	os.WriteFile(filepath.Join(r.root, "granted", "x.txt"), []byte("shared"), 0o644)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "files", map[string]any{"permissions": map[string]any{"filesystem": []string{"granted"}}})
	enable(t, r.home, "files", dir, map[string]any{"hostFiles": true})
	r.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	s, _ := r.session(t, agent.ModeCode)
	prompt(t, s, "hi")
	raw, _ := os.ReadFile(filepath.Join(r.home, "plugin-data", "files", "calls.jsonl"))
	for _, want := range []string{
		`{"method": "host/listFiles", "params": {"entries": [{"name": "a.txt"}]}}`,
		`{"method": "host/readFile", "params": {"content": "shared"}}`,
		`{"method": "host/writeFile", "params": {"error": -32001}}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("no %s in:\n%s", want, raw)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(r.home, "plugin-data", "files", "notes", "a.txt")); string(b) != "kept" {
		t.Errorf("written: %q", b)
	}
	if _, err := os.Stat(filepath.Join(r.root, "outside.txt")); err == nil {
		t.Error("wrote outside its grants")
	}
}

// host/applyEdit goes through the session's host within the filesystem
// grants and leaves a file changed since alone; host/marker needs
// permissions.task, host/deliver permissions.agent.
func TestHostSessionCalls(t *testing.T) {
	r := newRig(t)
	os.MkdirAll(filepath.Join(r.root, "granted"), 0o755)
	os.WriteFile(filepath.Join(r.root, "granted", "x.txt"), []byte("mine"), 0o644)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "edits", map[string]any{"permissions": map[string]any{"filesystem": []string{"granted"}}})
	enable(t, r.home, "edits", dir, map[string]any{"hostCalls": [][]any{
		{"host/applyEdit", map[string]any{"path": "granted/new.txt", "content": "made"}},
		{"host/applyEdit", map[string]any{"path": "granted/x.txt", "content": "theirs", "expect": "not what it holds"}},
		{"host/applyEdit", map[string]any{"path": "outside.txt", "content": "no"}},
		{"host/marker", map[string]any{"name": "m"}},
		{"host/deliver", map[string]any{"text": "psst"}},
	}})
	r.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	s, _ := r.session(t, agent.ModeCode)
	prompt(t, s, "hi")
	raw, _ := os.ReadFile(filepath.Join(r.home, "plugin-data", "edits", "calls.jsonl"))
	for _, want := range []string{
		`{"method": "host/applyEdit", "params": {"applied": true}}`,
		`{"method": "host/applyEdit", "params": {"applied": false, "reason": "the file changed since; left as it is"}}`,
		`{"method": "host/applyEdit", "params": {"error": -32001}}`,
		`{"method": "host/marker", "params": {"error": -32001}}`,
		`{"method": "host/deliver", "params": {"error": -32001}}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("no %s in:\n%s", want, raw)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(r.root, "granted", "new.txt")); string(b) != "made" {
		t.Errorf("new.txt: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(r.root, "granted", "x.txt")); string(b) != "mine" {
		t.Errorf("x.txt overwritten: %q", b)
	}
	if _, err := os.Stat(filepath.Join(r.root, "outside.txt")); err == nil {
		t.Error("wrote outside its grants")
	}
}

// A plugin that answers its hooks too late three times in a row counts as
// hung: it is taken out of the session like a crashed one, and the turn
// goes on.
func TestHungPlugin(t *testing.T) {
	r := newRig(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "slow", map[string]any{"permissions": hookPerms, "hookTimeoutMs": 50})
	enable(t, r.home, "slow", dir, map[string]any{"hooks": []string{"beforeToolCall"}, "beforeToolCall": map[string]any{"sleepMs": 200}})
	var replies []llmtest.Reply
	for range 3 {
		replies = append(replies, llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo ran"}`}}})
	}
	r.srv.Enqueue(append(replies, llmtest.Reply{Text: []string{"done"}})...)
	s, _ := r.session(t, agent.ModeFullAuto)
	if got := prompt(t, s, "go"); got != agent.StopEndTurn {
		t.Fatalf("stop %q", got)
	}
	for i, q := range r.srv.Requests()[1:] {
		if !strings.Contains(q.LastUserText(), "ran") {
			t.Errorf("call %d did not run: %q", i+1, q.LastUserText())
		}
	}
	log, _ := os.ReadFile(filepath.Join(r.home, "logs", "plugin-slow.log"))
	if strings.Count(string(log), "over its budget; skipped") < 3 || !strings.Contains(string(log), "3 calls in a row ran over budget") {
		t.Errorf("log: %s", log)
	}
}
