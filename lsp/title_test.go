package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestTitlesOverLSP: after the first exchange the model's title comes as
// a session_info_update in tandem/update and tandem/listSessions shows
// it (and the turn's tool call carries its name); tandem/renameSession sets the user's title, which a later model
// answer never replaces, and refuses an empty one.
func TestTitlesOverLSP(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	model := llmtest.NewServer(t)
	model.Handle(func(r *llmtest.Request) llmtest.Reply {
		if strings.Contains(r.LastUserText(), "evicts") { // the first turn looks around first
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "l1", Name: "list_files", Args: `{}`}}}
		}
		return llmtest.Reply{Text: []string{"On it."}}
	})
	model.Titles(func(r *llmtest.Request) llmtest.Reply {
		if strings.Contains(r.LastUserText(), "second") {
			return llmtest.Reply{Text: []string{"Not the user's"}}
		}
		return llmtest.Reply{Text: []string{"Cache eviction fix"}}
	})
	c := startClient(t, fakeModelEnvHome(t, model, home))
	c.initialize(root, map[string]any{})
	infoUpdate := func(seen int, sid, title string) {
		t.Helper()
		c.waitMsgFrom(seen, "session_info_update "+title, func(m rpcMsg) bool {
			return m.Method == "tandem/update" && strings.Contains(string(m.Params), sid) &&
				strings.Contains(string(m.Params), `"sessionUpdate":"session_info_update","title":"`+title+`"`)
		})
	}
	titles := func() map[string]string {
		var list struct {
			Sessions []struct{ SessionID, Title string } `json:"sessions"`
		}
		c.mustCall("tandem/listSessions", map[string]any{"cwd": root}, &list)
		out := map[string]string{}
		for _, s := range list.Sessions {
			out[s.SessionID] = s.Title
		}
		return out
	}
	prompt := func(sid, text string) {
		c.mustCall("tandem/prompt", map[string]any{"sessionId": sid, "prompt": []map[string]string{{"type": "text", "text": text}}}, nil)
	}

	var first struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{"cwd": root}, &first)
	before := len(c.messages())
	prompt(first.SessionID, "the cache evicts too early")
	infoUpdate(before, first.SessionID, "Cache eviction fix")
	// tandem/update's tool calls carry the tool's model-facing name.
	c.waitMsgFrom(before, "tool_call with its name", func(m rpcMsg) bool {
		return m.Method == "tandem/update" && strings.Contains(string(m.Params), `"sessionUpdate":"tool_call"`) &&
			strings.Contains(string(m.Params), `"name":"list_files"`)
	})
	if got := titles()[first.SessionID]; got != "Cache eviction fix" {
		t.Errorf("listed title %q, want the model's", got)
	}

	var second struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{"cwd": root}, &second)
	before = len(c.messages())
	c.mustCall("tandem/renameSession", map[string]any{"sessionId": second.SessionID, "title": "Mine"}, nil)
	infoUpdate(before, second.SessionID, "Mine")
	prompt(second.SessionID, "second session")
	c.mustCall("tandem/closeSession", map[string]any{"sessionId": second.SessionID}, nil)
	if got := titles()[second.SessionID]; got != "Mine" {
		t.Errorf("user's title became %q", got)
	}
	if _, err := c.call("tandem/renameSession", map[string]any{"sessionId": second.SessionID, "title": "\t"}); err == nil || err.Code != -32602 {
		t.Errorf("empty title: %v, want InvalidParams", err)
	}
	if n := len(model.TitleRequests()); n != 1 {
		t.Errorf("%d title requests, want 1 (the user named the second session first)", n)
	}
}
