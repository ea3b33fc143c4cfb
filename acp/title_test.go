package acp

import (
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/title"
)

// TestTitlesOverACP drives `tandem acp` with a fake model that answers
// title requests apart from the conversation: after the first exchange
// the session asks the configured title model (TANDEM_TITLE_MODEL) for a
// title and sends it as session_info_update; session/list shows it, also
// after a restart, and no later turn asks again. A title the user set with
// _tandem/session/rename, before the first prompt or while the title
// request is in flight, is never replaced; a failing title request keeps
// the first prompt's title. Every message is checked against the schema.
func TestTitlesOverACP(t *testing.T) {
	home, ws := t.TempDir(), workspace(t, nil)
	srv := llmtest.NewServer(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"Looking at it now."}} })
	asked := make(chan string, 16) // each title request's prompt line
	release := make(chan struct{}) // lets the slow title request answer
	srv.Titles(func(r *llmtest.Request) llmtest.Reply {
		text := r.LastUserText()
		asked <- text
		switch {
		case strings.Contains(text, "broken"):
			return llmtest.Reply{Status: 400, Message: "no titles today"}
		case strings.Contains(text, "slow"):
			<-release
			return llmtest.Reply{Text: []string{"Model's slow title"}}
		}
		return llmtest.Reply{Text: []string{"Title: \"Parser bug hunt\"\n"}}
	})
	url := srv.BaseURL(llmtest.Anthropic)
	caps := map[string]any{"fs": map[string]bool{"readTextFile": false, "writeTextFile": false}, "terminal": false}
	peer, client, stop := peerTandem(t, home, url, caps, "TANDEM_TITLE_MODEL=cheap-model")

	newSession := func() string {
		var r struct {
			SessionID string `json:"sessionId"`
		}
		answered(t, peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &r))
		return r.SessionID
	}
	prompt := func(sid, text string) { t.Helper(); peerPrompt(t, peer, sid, text) }
	waitTitle := func(want string) {
		t.Helper()
		for {
			select {
			case got := <-client.titles:
				if got == want {
					return
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no session_info_update with title %q", want)
			}
		}
	}
	waitAsked := func(want string) {
		t.Helper()
		select {
		case got := <-asked:
			if !strings.Contains(got, want) {
				t.Fatalf("title request about %q, want %q", got, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no title request about %q", want)
		}
	}
	titles := func() map[string]string {
		t.Helper()
		var r struct {
			Sessions []struct{ SessionID, Title string } `json:"sessions"`
		}
		answered(t, peer.Call("session/list", map[string]any{}, &r))
		out := map[string]string{}
		for _, s := range r.Sessions {
			out[s.SessionID] = s.Title
		}
		return out
	}

	// The model names the session after its first exchange.
	named := newSession()
	prompt(named, "parser: fix the crash on empty input\nit panics in parse.go")
	waitTitle("parser: fix the crash on empty input") // the turn's own, from the prompt
	waitAsked("parser: fix the crash on empty input")
	waitTitle("Parser bug hunt")
	reqs := srv.TitleRequests()
	if len(reqs) != 1 || reqs[0].Model != "cheap-model" || reqs[0].System != title.System ||
		!strings.Contains(reqs[0].LastUserText(), "Looking at it now.") {
		t.Fatalf("title requests %d; first: model %q, text %q", len(reqs), reqs[0].Model, reqs[0].LastUserText())
	}
	for _, r := range srv.Requests() {
		if r.System == title.System {
			t.Error("a title request reached the conversation's replies")
		}
	}
	prompt(named, "and the lexer too")
	if got := titles()[named]; got != "Parser bug hunt" {
		t.Errorf("session/list title %q, want the model's", got)
	}

	// A title the user set first is kept: no title request at all.
	mine := newSession()
	answered(t, peer.Call(methodRenameSession, map[string]any{"sessionId": mine, "title": "  My\nown name "}, nil))
	waitTitle("My own name")
	prompt(mine, "rename: look at the docs")
	waitTitle("My own name") // the turn's update keeps it

	// A rename while the title request is in flight wins over its answer.
	raced := newSession()
	prompt(raced, "slow: take your time")
	waitAsked("slow: take your time")
	answered(t, peer.Call(methodRenameSession, map[string]any{"sessionId": raced, "title": "Named while asking"}, nil))
	waitTitle("Named while asking")
	close(release)

	// A failing title request keeps the first prompt's title.
	failed := newSession()
	prompt(failed, "broken: title model is down")
	waitAsked("broken: title model is down")
	answered(t, peer.Call("session/close", map[string]any{"sessionId": failed}, nil))
	answered(t, peer.Call("session/close", map[string]any{"sessionId": raced}, nil))

	// An empty title is refused; an unknown session is not found.
	if err := peer.Call(methodRenameSession, map[string]any{"sessionId": mine, "title": " \n "}, nil); err == nil {
		t.Error("an empty title was accepted")
	}
	if err := peer.Call(methodRenameSession, map[string]any{"sessionId": "s_nope", "title": "x"}, nil); err == nil {
		t.Error("renaming an unknown session succeeded")
	}

	// After a restart the titles are the stored ones, and a loaded
	// session's next turn asks for none.
	stop()
	peer, client, _ = peerTandem(t, home, url, caps, "TANDEM_TITLE_MODEL=cheap-model")
	want := map[string]string{named: "Parser bug hunt", mine: "My own name", raced: "Named while asking", failed: "broken: title model is down"}
	got := titles()
	for id, w := range want {
		if got[id] != w {
			t.Errorf("after a restart session %s is titled %q, want %q", id, got[id], w)
		}
	}
	// A stored session that is not open is renamed in the store.
	answered(t, peer.Call(methodRenameSession, map[string]any{"sessionId": failed, "title": "Renamed at rest"}, nil))
	if got := titles()[failed]; got != "Renamed at rest" {
		t.Errorf("a closed session renamed: %q", got)
	}
	answered(t, peer.Call("session/load", map[string]any{"sessionId": named, "cwd": ws, "mcpServers": []any{}}, nil))
	prompt(named, "one more thing")
	waitTitle("Parser bug hunt")
	if n := len(srv.TitleRequests()); n != 3 {
		t.Errorf("%d title requests, want 3 (named, slow, broken)", n)
	}
}
