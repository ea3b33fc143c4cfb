package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/title"
	"github.com/tandemhq/tandem/internal/redact"
)

// titleHost is a testHost that reports each session_info_update's title.
type titleHost struct {
	testHost
	titles chan string
}

func (h *titleHost) Send(u Update) {
	h.testHost.Send(u)
	if u.Type == SessionInfoUpdated {
		h.titles <- u.Info.Title
	}
}

// The title request is a side request: the conversation's requests keep
// their byte-stable prefix (the second prompt's request extends the
// first's), its tokens count toward the session's cost and are restored
// with it, and the model's title is kept with the session.
func TestTitleRequestIsASideRequest(t *testing.T) {
	f := newFixture(t)
	f.srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"Sure."}} })
	f.srv.Titles(func(*llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: []string{"Greeting the agent"}, Usage: &llm.Usage{InputTokens: 1000, OutputTokens: 7}}
	})
	h := &titleHost{titles: make(chan string, 16)}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: writeTree(t, nil), Host: h})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt(context.Background(), prompt("hello there")); err != nil {
		t.Fatal(err)
	}
	for got := ""; got != "Greeting the agent"; {
		select {
		case got = <-h.titles:
		case <-time.After(10 * time.Second):
			t.Fatal("no model title")
		}
	}
	if _, err := s.Prompt(context.Background(), prompt("and again")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 || llmtest.PrefixKept(reqs[0], reqs[1]) != nil {
		t.Fatalf("%d conversation requests; prefix kept: %v", len(reqs), llmtest.PrefixKept(reqs[0], reqs[1]))
	}
	if tr := f.srv.TitleRequests(); len(tr) != 1 || tr[0].System != title.System || len(tr[0].Tools) != 0 {
		t.Errorf("title requests: %d", len(tr))
	}
	_, total := s.Usage()
	if total.Requests != 3 || total.Usage.InputTokens < 1000 {
		t.Errorf("session usage %+v, want the title request counted", total)
	}
	id := s.ID()
	s.Close()
	s2, err := New(f.agent.cfg).ResumeSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, again := s2.Usage(); again.Requests != 3 || s2.Title() != "Greeting the agent" {
		t.Errorf("resumed: usage %+v, title %q", again, s2.Title())
	}
}

// Neither a first prompt's title nor a model's carries a key to the
// session's sidecar or the editor.
func TestTitleNeverCarriesASecret(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Redact = redact.New(secretKey) })
	f.srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"Stored."}} })
	f.srv.Titles(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"Token " + secretKey}} })
	h := &titleHost{titles: make(chan string, 16)}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: writeTree(t, nil), Host: h})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt(context.Background(), prompt("store "+secretKey+" in .env")); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for len(seen) < 2 {
		select {
		case got := <-h.titles:
			seen = append(seen, got)
		case <-time.After(10 * time.Second):
			t.Fatalf("titles so far %q, want the prompt's and the model's", seen)
		}
	}
	id := s.ID()
	s.Close()
	meta, err := f.agent.cfg.Store.Meta(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(seen, meta.Title) {
		if strings.Contains(text, secretKey) || !strings.Contains(text, redact.Mask) {
			t.Errorf("title %q: want the key masked", text)
		}
	}
	if meta.TitleBy != store.TitleByModel {
		t.Errorf("stored title by %q", meta.TitleBy)
	}
}
