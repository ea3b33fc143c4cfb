package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// toolResultText is what the model was told for tool call id.
func (f *fixture) toolResultText(id string) (string, bool) {
	for _, r := range f.model.Requests() {
		for _, m := range r.Messages {
			for _, p := range m.Content {
				if p.Type == llm.PartToolResult && p.ToolCallID == id {
					return p.Text, true
				}
			}
		}
	}
	return "", false
}

// TestNoWayToAsk runs tandem lsp over stdio for a client with neither
// experimental.tandem.permissions nor window.showMessage (Helix). The
// policy, not the front door, decides: AGENTS.md is refused in every mode,
// a plain edit is refused in code mode and applies in auto-edit and
// full-auto, and the model reads every refusal.
func TestNoWayToAsk(t *testing.T) {
	t.Parallel()
	caps := map[string]any{
		"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		"window":    map[string]any{"showDocument": map[string]any{"support": true}},
	}
	const agents = "# Rules\nbe kind\n"
	for _, tc := range []struct {
		mode         string
		wantEdit     bool
		agentsReason string // what the model reads for the AGENTS.md edit
		mainReason   string // and for main.go's, when refused
	}{
		{"ask", false, "not available in ask mode", "not available in ask mode"},
		{"code", false, "AGENTS.md is a protected file", "this editor cannot show permission prompts, and in code mode edits need the user's approval"},
		{"auto-edit", true, "AGENTS.md is a protected file", ""},
		{"full-auto", true, "AGENTS.md is a protected file", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			agentsCall := editCall("AGENTS.md", "be kind", "be mean")
			agentsCall.ID = "agents"
			mainCall := editCall("main.go", "func f() {}", "func g() {}")
			mainCall.ID = "main"
			f := newFixture(t, caps, tc.mode,
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{agentsCall}},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{mainCall}},
				llmtest.Reply{Text: []string{"ok"}},
			)
			mainPath := f.write("main.go", wideText)
			agentsPath := f.write("AGENTS.md", agents)
			ed := newEditor("utf-16")
			ed.open(f.c, mainPath, wideText)
			ed.open(f.c, agentsPath, agents)
			var asked []string
			f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
				if method == "workspace/applyEdit" {
					var p wireApplyEdit
					json.Unmarshal(params, &p)
					if err := ed.apply(f.c, p); err != nil {
						return map[string]any{"applied": false, "failureReason": err.Error()}, nil
					}
					return map[string]any{"applied": true}, nil
				}
				asked = append(asked, method)
				return nil, &rpcError{Code: -32601, Message: "unexpected " + method}
			})
			if _, err := f.prompt("edit AGENTS.md, then rename f"); err != nil {
				t.Fatal(err)
			}
			if len(asked) != 0 {
				t.Errorf("the server sent %v to a client that cannot answer them", asked)
			}
			if got := ed.text(agentsPath); got != agents {
				t.Errorf("AGENTS.md was edited: %q", got)
			}
			if got, _ := f.toolResultText("agents"); !strings.Contains(got, tc.agentsReason) {
				t.Errorf("the model was told %q for AGENTS.md, want %q", got, tc.agentsReason)
			}
			edited := strings.Contains(ed.text(mainPath), "func g() {}")
			if edited != tc.wantEdit {
				t.Errorf("main.go edited = %v, want %v", edited, tc.wantEdit)
			}
			got, _ := f.toolResultText("main")
			if !tc.wantEdit && !strings.Contains(got, tc.mainReason) {
				t.Errorf("the model was told %q for main.go, want %q", got, tc.mainReason)
			}
			if tc.mode == "code" && !strings.Contains(got, "auto-edit or full-auto mode") {
				t.Errorf("the refusal %q does not say which mode would apply the edit", got)
			}
			if tc.mode == "code" {
				// The user sees the same refusal in the tool call, and the
				// reason prompts are missing once.
				notices, shown := 0, false
				for _, m := range f.c.messages() {
					switch m.Method {
					case "window/showMessage":
						notices++
					case "tandem/update":
						shown = shown || strings.Contains(string(m.Params), "in code mode edits need")
					}
				}
				if notices != 1 || !shown {
					t.Errorf("%d window/showMessage notices (want 1); refusal shown in a tool call update: %v", notices, shown)
				}
			}
			if d := f.disk(filepath.Base(agentsPath)); d != agents {
				t.Errorf("AGENTS.md on disk: %q", d)
			}
		})
	}
}
