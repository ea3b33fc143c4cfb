package plugin_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// writeFiles writes files (relative path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// reviewsPlugin is a declarative plugin with a mode, an agent and two
// rules files: one for its own mode (named in its frontmatter), one for
// code mode (named in the manifest).
func reviewsPlugin(t *testing.T, plugins string) string {
	t.Helper()
	dir := filepath.Join(plugins, "reviews")
	writeFiles(t, dir, map[string]string{
		"modes/review.md":   "---\nname: Review\ndescription: Reviews a change\n---\nREVIEW-ROLE: read the diff closely.\n",
		"rules/review.md":   "---\nmodes: [review]\n---\nREVIEW-RULE: cite line numbers.\n",
		"rules/code.md":     "CODE-RULE: keep functions short.\n",
		"agents/checker.md": "---\ndescription: Checks a change\n---\nCHECKER-PROMPT: you check changes.\n",
	})
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "reviews", "version": "1.0.0", "description": "review helpers",
		"permissions": map[string]any{"modes": true, "agent": true, "rules": true},
		"contributes": map[string]any{
			"modes": []map[string]any{{"name": "review", "path": "modes/review.md"}},
			"rules": []map[string]any{{"path": "rules/review.md"}, {"path": "rules/code.md", "modes": []string{"code"}}},
		},
	})
	return dir
}

// toolDoc is the description a request gives the named tool (the fake
// model speaks Anthropic's format here).
func toolDoc(t *testing.T, r *llmtest.Request, name string) string {
	t.Helper()
	var body struct {
		Tools []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tools"`
	}
	must(t, json.Unmarshal(r.Body, &body))
	for _, tl := range body.Tools {
		if tl.Name == name {
			return tl.Description
		}
	}
	t.Fatalf("no tool %s in request %d", name, r.N)
	return ""
}

// modeSelector is the mode selector of a configOptions list: its current
// value and the ids it offers.
func modeSelector(t *testing.T, raw json.RawMessage) (string, []string) {
	t.Helper()
	var opts []struct {
		ID           string `json:"id"`
		CurrentValue string `json:"currentValue"`
		Options      []struct {
			Value string `json:"value"`
		} `json:"options"`
	}
	must(t, json.Unmarshal(raw, &opts))
	for _, o := range opts {
		if o.ID == "mode" {
			var ids []string
			for _, v := range o.Options {
				ids = append(ids, v.Value)
			}
			return o.CurrentValue, ids
		}
	}
	t.Fatalf("no mode selector in %s", raw)
	return "", nil
}

// modes returns the session's current mode and the modes it offers, as
// the editor learns them: LSP asks tandem/configOptions; ACP, told by
// config_option_update notifications, waits until one satisfies ok (at
// most 5s) and returns the last. Before any, it sets the mode it is in
// (want) with session/set_config_option, whose answer lists them.
func (f *front) modes(t *testing.T, sid, want string, ok func(cur string, ids []string) bool) (string, []string) {
	t.Helper()
	var r struct {
		ConfigOptions json.RawMessage `json:"configOptions"`
	}
	if f.kind == "lsp" {
		must(t, f.peer.Call("tandem/configOptions", map[string]any{"sessionId": sid}, &r))
		return modeSelector(t, r.ConfigOptions)
	}
	var last json.RawMessage
	latest := func() json.RawMessage {
		f.mu.Lock()
		defer f.mu.Unlock()
		if n := len(f.configs); n > 0 {
			return f.configs[n-1]
		}
		return nil
	}
	if latest() == nil {
		must(t, f.peer.Call("session/set_config_option", map[string]any{"sessionId": sid, "configId": "mode", "value": want}, &r))
		return modeSelector(t, r.ConfigOptions)
	}
	// Each recorded update checks again; after 5s the last one stands.
	f.changes.Wait(5*time.Second, func() bool {
		last = latest()
		cur, ids := modeSelector(t, last)
		return ok(cur, ids)
	})
	return modeSelector(t, last)
}

func (f *front) setMode(t *testing.T, sid, mode string) {
	t.Helper()
	method := "session/set_mode"
	if f.kind == "lsp" {
		method = "tandem/setMode"
	}
	must(t, f.peer.Call(method, map[string]any{"sessionId": sid, "modeId": mode}, nil))
}

// A plugin's mode, agent and rules through a real `tandem acp` and
// `tandem lsp`: the mode is offered namespaced and selectable, its role
// and its rule reach the model in that mode only (never through the
// system prompt, which stays the same bytes), the code-mode rule only in
// code mode; the task tool runs the plugin's agent by its namespaced
// name; disabling the plugin live takes all of it away and moves the
// session back to code mode.
func TestFrontPluginModesAgentsRules(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) {
			home, root := t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			srv := llmtest.NewServer(t)
			dir := reviewsPlugin(t, filepath.Join(home, "plugins"))
			enable(t, home, "reviews", dir, nil)

			f := startFront(t, kind, home, root, srv)
			sid := f.newSession(t, root, "code")
			offers := func(cur string, ids []string) bool { return cur == "code" && slices.Contains(ids, "reviews:review") }
			if cur, ids := f.modes(t, sid, "code", offers); !offers(cur, ids) {
				t.Fatalf("modes offered: %s %v", cur, ids)
			}
			srv.Enqueue(llmtest.Reply{Text: []string{"one"}})
			f.prompt(t, sid, "first")

			f.setMode(t, sid, "reviews:review")
			srv.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"description":"check","prompt":"check the change","agent":"reviews:checker"}`}}},
				llmtest.Reply{Text: []string{"all good"}},
				llmtest.Reply{Text: []string{"two"}},
			)
			f.prompt(t, sid, "second")

			if out := cli(t, home, "disable", "reviews"); !strings.Contains(out, "disabled reviews") {
				t.Fatalf("disable: %s", out)
			}
			srv.Enqueue(llmtest.Reply{Text: []string{"three"}})
			f.prompt(t, sid, "third")
			gone := func(cur string, ids []string) bool {
				return cur == "code" && slices.Contains(ids, "ask") && !slices.Contains(ids, "reviews:review")
			}
			if cur, ids := f.modes(t, sid, "code", gone); !gone(cur, ids) {
				t.Errorf("after disable: %s %v", cur, ids)
			}

			reqs := srv.Requests()
			if len(reqs) != 5 {
				t.Fatalf("%d requests", len(reqs))
			}
			first, review, child, after := reqs[0], reqs[1], reqs[2], reqs[4]
			has := func(r *llmtest.Request, s string) bool { return strings.Contains(r.LastUserText(), s) }
			if !has(first, "CODE-RULE") || has(first, "REVIEW-RULE") || has(first, "REVIEW-ROLE") {
				t.Errorf("code mode's message: %q", first.LastUserText())
			}
			if !has(review, "REVIEW-ROLE") || !has(review, "REVIEW-RULE") || has(review, "CODE-RULE") {
				t.Errorf("review mode's message: %q", review.LastUserText())
			}
			for _, r := range []*llmtest.Request{review, after} {
				if r.System != first.System {
					t.Errorf("the system prompt changed:\n%q\n%q", first.System, r.System)
				}
			}
			if strings.Contains(first.System, "RULE") {
				t.Errorf("rules in the system prompt: %q", first.System)
			}
			if !strings.Contains(toolDoc(t, first, "task"), "reviews:checker") {
				t.Error("the task tool does not list the plugin's agent")
			}
			if !strings.Contains(child.System, "CHECKER-PROMPT") {
				t.Errorf("the child's system prompt: %q", child.System)
			}
			if !has(reqs[3], "all good") {
				t.Errorf("the task's report: %q", reqs[3].LastUserText())
			}
			if strings.Contains(toolDoc(t, after, "task"), "reviews:checker") {
				t.Error("the plugin's agent is still offered after disable")
			}
			if has(after, "RULE") || !has(after, "no longer apply") {
				t.Errorf("after disable: %q", after.LastUserText())
			}
		})
	}
}

// A Claude Code plugin's agents/x.md is the agent <plugin>:x.
func TestFrontClaudeCodeAgent(t *testing.T) {
	home, root, src := t.TempDir(), t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	cc := filepath.Join(src, "cc-agents")
	writeFiles(t, cc, map[string]string{
		".claude-plugin/plugin.json": `{"name":"cc-agents","version":"1.0.0"}`,
		"agents/x.md":                "---\ndescription: Looks things up\ntools: Read, Grep, WebFetch\n---\nX-AGENT-PROMPT\n",
	})
	cli(t, home, "install", cc)
	cli(t, home, "enable", "cc-agents")
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"description":"look","prompt":"look it up","agent":"cc-agents:x"}`}}},
		llmtest.Reply{Text: []string{"found"}},
		llmtest.Reply{Text: []string{"done"}},
	)
	f := startFront(t, "acp", home, root, srv)
	sid := f.newSession(t, root, "code")
	f.prompt(t, sid, "go")
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(reqs[1].System, "X-AGENT-PROMPT") {
		t.Errorf("the child's system prompt: %q", reqs[1].System)
	}
	if !slices.Contains(reqs[1].Tools, "read_file") || slices.Contains(reqs[1].Tools, "run_command") {
		t.Errorf("the child's tools: %v", reqs[1].Tools)
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "found") {
		t.Errorf("report: %q", got)
	}
}
