package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// documented lists the methods docs/lsp-protocol.md describes.
func documented(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "lsp-protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?m)^### `(tandem/[A-Za-z]+)`").FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestProtocolDocumentMatchesServerAndKits: every tandem/* method the
// server serves or sends is in docs/lsp-protocol.md, every documented one
// is served (or sent), and every tandem/* name the editor kits use is
// documented.
func TestProtocolDocumentMatchesServerAndKits(t *testing.T) {
	t.Parallel()
	doc := documented(t)
	src, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	served := regexp.MustCompile(`"(tandem/[A-Za-z]+)":`).FindAllStringSubmatch(string(src), -1)
	known := []string{"tandem/update", "tandem/requestPermission"} // sent by the server
	for _, m := range served {
		known = append(known, m[1])
	}
	for _, m := range known {
		if !slices.Contains(doc, m) {
			t.Errorf("%s is not documented in docs/lsp-protocol.md", m)
		}
	}
	for _, m := range doc {
		if !slices.Contains(known, m) {
			t.Errorf("docs/lsp-protocol.md describes %s, which the server does not serve", m)
		}
	}
	name := regexp.MustCompile(`tandem/[A-Za-z]+`)
	for _, dir := range []string{"../editors/neovim/lua", "../editors/vscode/src", "../editors/emacs"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".lua") || strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".el")) {
				return nil
			}
			b, _ := os.ReadFile(p)
			for _, m := range name.FindAllString(string(b), -1) {
				if !slices.Contains(doc, m) {
					t.Errorf("%s uses %s, which docs/lsp-protocol.md does not describe", p, m)
				}
			}
			return nil
		})
	}
}

// TestSessionOperationsOverLSP runs each session operation ACP has through
// its tandem/* method, with the shapes the document gives.
func TestSessionOperationsOverLSP(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, "", llmtest.Reply{Text: []string{"first answer"}}, llmtest.Reply{Text: []string{"fork answer"}})
	type option struct {
		ID           string `json:"id"`
		CurrentValue string `json:"currentValue"`
		Options      []struct {
			Value string `json:"value"`
		} `json:"options"`
	}
	var opts struct {
		ConfigOptions []option `json:"configOptions"`
	}
	f.c.mustCall("tandem/configOptions", map[string]any{"sessionId": f.session}, &opts)
	var ids []string
	for _, o := range opts.ConfigOptions {
		ids = append(ids, o.ID+"="+o.CurrentValue)
	}
	// The switches come last as on/off selectors (sandbox only where the
	// local runner confines commands, as it does under the test).
	if got := strings.Join(ids, " "); got != "mode=code model=claude-sonnet-4-5 thought_level=off sandbox=on auto_compact=on" &&
		got != "mode=code model=claude-sonnet-4-5 thought_level=off auto_compact=on" {
		t.Errorf("config options: %s", got)
	}
	f.c.mustCall("tandem/setConfigOption", map[string]any{"sessionId": f.session, "configId": "thought_level", "value": "low"}, &opts)
	if opts.ConfigOptions[2].CurrentValue != "low" {
		t.Errorf("after setConfigOption: %+v", opts.ConfigOptions)
	}
	if _, err := f.c.call("tandem/setModel", map[string]any{"sessionId": f.session, "modelId": "gpt-99"}); err == nil || err.Code != -32602 || !strings.Contains(err.Message, "claude-sonnet-4-5") {
		t.Errorf("setModel to an unknown model: %v", err)
	}
	// An offered model is taken, and the answer is every selector's state.
	offered := opts.ConfigOptions[1].Options[len(opts.ConfigOptions[1].Options)-1].Value
	opts.ConfigOptions = nil
	f.c.mustCall("tandem/setModel", map[string]any{"sessionId": f.session, "modelId": offered}, &opts)
	if len(opts.ConfigOptions) < 4 || opts.ConfigOptions[1].ID != "model" || opts.ConfigOptions[1].CurrentValue != offered || opts.ConfigOptions[2].CurrentValue != "low" {
		t.Errorf("after setModel %s: %+v", offered, opts.ConfigOptions)
	}
	f.c.mustCall("tandem/setConfigOption", map[string]any{"sessionId": f.session, "configId": "auto_compact", "value": "off"}, &opts)
	if last := opts.ConfigOptions[len(opts.ConfigOptions)-1]; last.ID != "auto_compact" || last.CurrentValue != "off" {
		t.Errorf("after setting auto_compact off: %+v", opts.ConfigOptions)
	}
	if _, err := f.c.call("tandem/setConfigOption", map[string]any{"sessionId": f.session, "configId": "auto_compact", "value": "maybe"}); err == nil || err.Code != -32602 {
		t.Errorf("a switch set to neither on nor off: %v", err)
	}
	// A switch also takes a JSON boolean, as ACP's boolean form; a
	// selector does not.
	for _, on := range []bool{true, false} {
		f.c.mustCall("tandem/setConfigOption", map[string]any{"sessionId": f.session, "configId": "auto_compact", "value": on}, &opts)
		if last := opts.ConfigOptions[len(opts.ConfigOptions)-1]; last.ID != "auto_compact" || (last.CurrentValue == "on") != on {
			t.Errorf("after setting auto_compact %v: %+v", on, opts.ConfigOptions)
		}
	}
	// autoCompact is the switch's value in session id's tandem/configOptions.
	autoCompact := func(id string) string {
		t.Helper()
		var o struct {
			ConfigOptions []option `json:"configOptions"`
		}
		f.c.mustCall("tandem/configOptions", map[string]any{"sessionId": id}, &o)
		for _, x := range o.ConfigOptions {
			if x.ID == "auto_compact" {
				return x.CurrentValue
			}
		}
		return ""
	}
	for _, v := range []any{true, nil, 3} {
		if _, err := f.c.call("tandem/setConfigOption", map[string]any{"sessionId": f.session, "configId": "thought_level", "value": v}); err == nil || err.Code != -32602 {
			t.Errorf("thought_level set to %v: %v, want -32602", v, err)
		}
	}
	if _, err := f.c.call("tandem/setConfigOption", map[string]any{"sessionId": f.session, "configId": "colour", "value": "red"}); err == nil || err.Code != -32602 {
		t.Errorf("an unknown option: %v", err)
	}
	var cmds struct {
		Commands []struct {
			Name string `json:"name"`
		} `json:"commands"`
	}
	f.c.mustCall("tandem/listCommands", map[string]any{"sessionId": f.session}, &cmds)
	var names []string
	for _, c := range cmds.Commands {
		names = append(names, c.Name)
	}
	if !slices.Contains(names, "model") || !slices.Contains(names, "mode") {
		t.Errorf("commands: %v", names)
	}

	if _, err := f.prompt("question"); err != nil {
		t.Fatal(err)
	}
	var usage struct {
		Turn struct {
			Requests int `json:"requests"`
		} `json:"turn"`
		Session struct {
			Requests int `json:"requests"`
		} `json:"session"`
	}
	f.c.mustCall("tandem/usage", map[string]any{"sessionId": f.session}, &usage)
	if usage.Turn.Requests != 1 || usage.Session.Requests != 1 {
		t.Errorf("usage: %+v", usage)
	}

	var fork struct {
		SessionID string `json:"sessionId"`
	}
	f.c.mustCall("tandem/forkSession", map[string]any{"sessionId": f.session, "cwd": f.root}, &fork)
	if fork.SessionID == "" || fork.SessionID == f.session {
		t.Fatalf("fork: %+v", fork)
	}
	if _, err := f.c.call("tandem/prompt", map[string]any{"sessionId": fork.SessionID, "prompt": []map[string]string{{"type": "text", "text": "in the fork"}}}); err != nil {
		t.Fatal(err)
	}
	if got := f.model.Requests()[1].Messages; !strings.Contains(jsonOf(got), "first answer") {
		t.Errorf("the fork lacks the history: %s", jsonOf(got))
	}
	if got := autoCompact(fork.SessionID); got != "off" {
		t.Errorf("the fork's auto_compact is %q, want the parent's off", got)
	}
	f.c.mustCall("tandem/closeSession", map[string]any{"sessionId": f.session}, nil)
	if _, err := f.c.call("tandem/usage", map[string]any{"sessionId": f.session}); err == nil {
		t.Error("a closed session still answers")
	}
	var resumed struct {
		Modes struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	f.c.mustCall("tandem/resumeSession", map[string]any{"sessionId": f.session, "cwd": f.root}, &resumed)
	if resumed.Modes.CurrentModeID != "code" {
		t.Errorf("resume: %+v", resumed)
	}
	if got := autoCompact(f.session); got != "off" {
		t.Errorf("the resumed session's auto_compact is %q, want off as it was closed", got)
	}
	f.c.mustCall("tandem/deleteSession", map[string]any{"sessionId": fork.SessionID}, nil)
	var list struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
		} `json:"sessions"`
	}
	f.c.mustCall("tandem/listSessions", map[string]any{"cwd": f.root}, &list)
	var left []string
	for _, s := range list.Sessions {
		left = append(left, s.SessionID)
	}
	sort.Strings(left)
	if len(left) != 1 || left[0] != f.session {
		t.Errorf("sessions after deleting the fork: %v (kept %s)", left, f.session)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
