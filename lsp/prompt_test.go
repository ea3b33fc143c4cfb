package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

type updateNote struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string          `json:"sessionUpdate"`
		Content       json.RawMessage `json:"content"`
		Title         string          `json:"title"`
	} `json:"update"`
}

func updates(msgs []rpcMsg) []updateNote {
	var out []updateNote
	for _, m := range msgs {
		if m.Method == "tandem/update" {
			var u updateNote
			json.Unmarshal(m.Params, &u)
			out = append(out, u)
		}
	}
	return out
}

// TestPromptStreamsUpdates: chunks arrive as tandem/update in order, with
// work-done progress around them, all before the prompt's response; the
// context item reaches the model as the buffer's text of that range.
func TestPromptStreamsUpdates(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"window": map[string]any{"workDoneProgress": true}}
	f := newFixture(t, caps, "", llmtest.Reply{Text: []string{"Hel", "lo ", "wörld 😀"}})
	path := f.write("notes.txt", "one\ntwo 日本\nthree\n")
	newEditor("utf-16").open(f.c, path, "one\ntwo 日本 unsaved\nthree\n")
	f.c.onRequest(func(method string, _ json.RawMessage) (any, *rpcError) {
		if method == "window/workDoneProgress/create" {
			return nil, nil
		}
		return nil, &rpcError{Code: -32601, Message: method}
	})
	id, ch := f.c.start("tandem/prompt", map[string]any{
		"sessionId": f.session,
		"prompt":    []map[string]string{{"type": "text", "text": "summarize"}},
		"context":   []map[string]any{{"uri": fileURI(path), "range": wireRange{Start: wirePos{1, 0}, End: wirePos{2, 0}}}},
	})
	res, rerr := f.c.await("tandem/prompt", ch)
	if rerr != nil || !strings.Contains(string(res), `"end_turn"`) {
		t.Fatalf("prompt: %s %v", res, rerr)
	}
	msgs := f.c.messages()
	respAt, beginAt, endAt := -1, -1, -1
	var text strings.Builder
	lastChunk := -1
	for i, m := range msgs {
		switch {
		case m.Method == "" && string(m.ID) == jsonInt(id):
			respAt = i
		case m.Method == "$/progress":
			var p struct {
				Value struct{ Kind string } `json:"value"`
			}
			json.Unmarshal(m.Params, &p)
			if p.Value.Kind == "begin" {
				beginAt = i
			}
			if p.Value.Kind == "end" {
				endAt = i
			}
		case m.Method == "tandem/update":
			var u updateNote
			json.Unmarshal(m.Params, &u)
			if u.SessionID != f.session {
				t.Errorf("update for session %q, want %q", u.SessionID, f.session)
			}
			if u.Update.SessionUpdate == "agent_message_chunk" {
				var c struct{ Text string }
				json.Unmarshal(u.Update.Content, &c)
				text.WriteString(c.Text)
				lastChunk = i
			}
		}
	}
	if text.String() != "Hello wörld 😀" {
		t.Errorf("streamed text %q, want %q", text.String(), "Hello wörld 😀")
	}
	if !(beginAt >= 0 && beginAt < lastChunk && lastChunk < endAt && endAt < respAt) {
		t.Errorf("order: progress begin %d, last chunk %d, progress end %d, response %d; want increasing", beginAt, lastChunk, endAt, respAt)
	}
	reqs := f.model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("model got %d requests, want 1", len(reqs))
	}
	sent := reqs[0].LastUserText()
	if !strings.Contains(sent, "two 日本 unsaved") || strings.Contains(sent, "three") {
		t.Errorf("model prompt %q: want exactly line 2 of the buffer as context", sent)
	}
}

// isChunk matches a tandem/update carrying the model's text (a session
// also sends its command list as a tandem/update).
func isChunk(m rpcMsg) bool {
	return m.Method == "tandem/update" && strings.Contains(string(m.Params), `"agent_message_chunk"`)
}

func jsonInt(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestCancel ends a hanging turn with stopReason cancelled, by
// tandem/cancel and by $/cancelRequest with a numeric id; the session stays
// usable.
func TestCancel(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"tandem/cancel", "$/cancelRequest", "window/workDoneProgress/cancel"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]any{"window": map[string]any{"workDoneProgress": true}}, "",
				llmtest.Reply{Text: []string{"thinking"}, Hang: true},
				llmtest.Reply{Text: []string{"again"}},
			)
			f.c.onRequest(func(string, json.RawMessage) (any, *rpcError) { return nil, nil })
			id, ch := f.c.start("tandem/prompt", map[string]any{"sessionId": f.session,
				"prompt": []map[string]string{{"type": "text", "text": "go"}}})
			f.c.waitMsg("the first chunk", isChunk)
			switch how {
			case "tandem/cancel":
				f.c.notify(how, map[string]any{"sessionId": f.session})
			case "$/cancelRequest":
				f.c.notify(how, map[string]any{"id": id})
			default:
				var p struct{ Token string }
				json.Unmarshal(f.c.waitMsg("progress begin", methodIs("$/progress")).Params, &p)
				f.c.notify(how, map[string]any{"token": p.Token})
			}
			start := time.Now()
			res, rerr := f.c.await("tandem/prompt", ch)
			if rerr != nil || !strings.Contains(string(res), `"cancelled"`) {
				t.Fatalf("cancelled prompt answered %s %v, want stopReason cancelled", res, rerr)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("cancel took %v", d)
			}
			if stop, err := f.prompt("again"); err != nil || stop != "end_turn" {
				t.Errorf("prompt after cancel: %q %v", stop, err)
			}
		})
	}
}

// TestPermission covers the three ways to ask: tandem/requestPermission,
// window/showMessageRequest, and no way at all (Helix), where code mode
// refuses the edit and the command (see TestNoWayToAsk).
func TestPermission(t *testing.T) {
	t.Parallel()
	applyCaps := map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}
	for _, tc := range []struct {
		name       string
		caps       map[string]any
		asks       string // the method the user is asked with; "" none
		answer     any
		wantEdit   bool
		wantNotice bool
	}{
		{name: "tandem/requestPermission allow",
			caps:   map[string]any{"workspace": applyCaps, "experimental": map[string]any{"tandem": map[string]any{"permissions": true}}},
			asks:   "tandem/requestPermission",
			answer: map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, wantEdit: true},
		{name: "showMessageRequest reject",
			caps:   map[string]any{"workspace": applyCaps, "window": map[string]any{"showMessage": map[string]any{}}},
			asks:   "window/showMessageRequest",
			answer: map[string]any{"title": "Reject"}},
		{name: "showMessageRequest allow",
			caps:   map[string]any{"workspace": applyCaps, "window": map[string]any{"showMessage": map[string]any{}}},
			asks:   "window/showMessageRequest",
			answer: map[string]any{"title": "Allow"}, wantEdit: true},
		{name: "no way to ask (Helix)",
			caps:       map[string]any{"workspace": applyCaps, "window": map[string]any{"showDocument": map[string]any{"support": true}}},
			wantNotice: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.caps, "code",
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("main.go", "func f() {}", "func g() {}")}},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"touch ran.txt"}`}}},
				llmtest.Reply{Text: []string{"ok"}},
			)
			path := f.write("main.go", wideText)
			ed := newEditor("utf-16")
			ed.open(f.c, path, wideText)
			var asked []json.RawMessage
			f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
				switch method {
				case "workspace/applyEdit":
					var p wireApplyEdit
					json.Unmarshal(params, &p)
					ed.apply(f.c, p)
					return map[string]any{"applied": true}, nil
				case tc.asks:
					asked = append(asked, params)
					if strings.Contains(string(params), "touch") {
						return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "reject_once"}, "title": "Reject"}, nil
					}
					return tc.answer, nil
				}
				return nil, &rpcError{Code: -32601, Message: "unexpected " + method}
			})
			if _, err := f.prompt("rename f, then run touch"); err != nil {
				t.Fatal(err)
			}
			edited := strings.Contains(ed.text(path), "func g() {}")
			if edited != tc.wantEdit {
				t.Errorf("buffer edited = %v, want %v", edited, tc.wantEdit)
			}
			if tc.asks != "" {
				if len(asked) != 2 {
					t.Fatalf("asked %d times via %s, want 2 (edit, command)", len(asked), tc.asks)
				}
				first := string(asked[0])
				if tc.asks == "tandem/requestPermission" {
					var p struct {
						SessionID string `json:"sessionId"`
						ToolCall  struct {
							Content []struct{ Type string } `json:"content"`
						} `json:"toolCall"`
						Options []struct{ OptionID string } `json:"optionId"`
					}
					json.Unmarshal(asked[0], &p)
					if p.SessionID != f.session || len(p.ToolCall.Content) == 0 || p.ToolCall.Content[0].Type != "diff" {
						t.Errorf("tandem/requestPermission params %s: want the session id and the diff", first)
					}
				} else {
					for _, title := range []string{"Allow", "Always allow edits to main.go in this project", "Reject", "Always reject edits to main.go in this project"} {
						if !strings.Contains(first, `"title":"`+title+`"`) {
							t.Errorf("showMessageRequest %s lacks action %q", first, title)
						}
					}
				}
			}
			if _, err := os.Stat(filepath.Join(f.root, "ran.txt")); err == nil {
				t.Error("the command ran although it was refused")
			}
			notices := 0
			for _, m := range f.c.messages() {
				if m.Method == "window/showMessage" {
					notices++
				}
			}
			if tc.wantNotice && notices != 1 || !tc.wantNotice && notices != 0 {
				t.Errorf("%d window/showMessage notices, want %v", notices, tc.wantNotice)
			}
			if d := f.disk("main.go"); d != wideText {
				t.Errorf("disk written: %q", d)
			}
		})
	}
}

// TestPromptRefusesAudio: an audio block (alone or beside text) and a
// block of an unknown type are refused with -32602 naming what is wrong,
// instead of being dropped unseen; nothing reaches the model, and the
// session goes on.
func TestPromptRefusesAudio(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, "", llmtest.Reply{Text: []string{"heard text"}})
	audio := map[string]string{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}
	text := map[string]string{"type": "text", "text": "transcribe this"}
	for _, c := range []struct {
		prompt []map[string]string
		want   string
	}{
		{[]map[string]string{audio}, "promptCapabilities.audio is false"},
		{[]map[string]string{text, audio}, "prompt block 1: audio is not supported"},
		{[]map[string]string{text, {"type": "video", "data": "AAAA"}}, `unknown content type "video"`},
	} {
		_, err := f.c.call("tandem/prompt", map[string]any{"sessionId": f.session, "prompt": c.prompt})
		if err == nil || err.Code != -32602 || !strings.Contains(err.Message, c.want) {
			t.Errorf("prompt %v: %v, want -32602 saying %q", c.prompt, err, c.want)
		}
	}
	if n := len(f.model.Requests()); n != 0 {
		t.Errorf("%d model requests after refused prompts, want 0", n)
	}
	if stop, err := f.prompt("now in text"); err != nil || stop != "end_turn" {
		t.Errorf("a text prompt after the refusals: %q, %v", stop, err)
	}
}
