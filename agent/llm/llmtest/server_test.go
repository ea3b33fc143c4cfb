package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

func providers(srv *llmtest.Server) []llm.Provider {
	return []llm.Provider{
		anthropic.New(anthropic.Options{BaseURL: srv.BaseURL(llmtest.Anthropic)}),
		openai.New(openai.Options{BaseURL: srv.BaseURL(llmtest.OpenAI)}),
	}
}

func say(p llm.Provider, text string) (string, error) {
	resp, err := p.Stream(context.Background(), &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, text)}}, func(llm.Event) {})
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, part := range resp.Message.Content {
		out.WriteString(part.Text)
	}
	return out.String(), nil
}

// Many sessions at once, each answered by what it said, in both formats.
func TestHandleConcurrent(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: []string{"re: ", r.LastUserText()}}
	})
	ps := providers(srv)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			msg := fmt.Sprintf("session %d", i)
			got, err := say(ps[i%2], msg)
			if err != nil || got != "re: "+msg {
				t.Errorf("%s: got %q, %v", msg, got, err)
			}
		})
	}
	wg.Wait()
	if n := len(srv.Requests()); n != 50 {
		t.Errorf("%d requests recorded, want 50", n)
	}
}

// The queue comes before the handler; an error reply repeats Times times.
func TestQueueThenHandler(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Status: 400, Times: 2, Message: "nope"}, llmtest.Reply{Text: []string{"queued"}})
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"handled"}} })
	p := providers(srv)[1]
	var got []string
	for range 4 {
		s, err := say(p, "x")
		var e *llm.Error
		if errors.As(err, &e) {
			s = fmt.Sprint(e.Status)
		}
		got = append(got, s)
	}
	if strings.Join(got, ",") != "400,400,queued,handled" {
		t.Errorf("answers = %v", got)
	}
}

func TestScriptRules(t *testing.T) {
	sc, err := llmtest.ParseScript([]byte(`{
		"replies": [{"text": ["one"]}],
		"rules": [
			{"last_user_contains": "weather", "has_tool": "none", "reply": {"text": ["never"]}},
			{"last_user_contains": "weather", "reply": {"text": ["sunny"]}}
		],
		"default": {"echo": true}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.Use(sc)
	p := providers(srv)[0]
	for _, tt := range []struct{ in, want string }{{"weather?", "one"}, {"weather?", "sunny"}, {"hi there", "hi there"}} {
		if got, err := say(p, tt.in); err != nil || got != tt.want {
			t.Errorf("%q -> %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// A script's context limit refuses a request over it with its server's
// body, takes no reply for it, and lets a smaller one through.
func TestScriptContextLimit(t *testing.T) {
	sc, err := llmtest.ParseScript([]byte(`{"context_limit": {"tokens": 200, "style": "llama.cpp"}, "default": {"text": ["fits"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.Use(sc)
	p := providers(srv)[1]
	_, err = say(p, strings.Repeat("too long ", 200))
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 400 || e.ContextSize != 200 || e.PromptTokens <= 200 || !strings.Contains(e.Message, "exceeds the available context size") {
		t.Errorf("over the limit: %v (%+v)", err, e)
	}
	if got, err := say(p, "short"); err != nil || got != "fits" {
		t.Errorf("under the limit: %q, %v", got, err)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || !reqs[0].Refused || reqs[1].Refused {
		t.Errorf("recorded %d requests, refused flags wrong", len(reqs))
	}
}

// Outside a test (fakellm), an unscripted request is a clear 400.
func TestUnscripted(t *testing.T) {
	srv := llmtest.Start()
	defer srv.Close()
	_, err := say(providers(srv)[0], "hello")
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, "no reply scripted") {
		t.Errorf("err = %v", err)
	}
}

// Delay paces every event; a client that cancels during a pause is let go.
func TestDelay(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"a", "b"}, Delay: llmtest.Duration(20 * time.Millisecond)},
		llmtest.Reply{Text: []string{"slow"}, Delay: llmtest.Duration(time.Hour)})
	p := providers(srv)[1]
	start := time.Now()
	if got, err := say(p, "x"); err != nil || got != "ab" {
		t.Fatalf("got %q, %v", got, err)
	}
	// role chunk, 2 text chunks, finish, usage, [DONE]: six paced events.
	if d := time.Since(start); d < 6*20*time.Millisecond {
		t.Errorf("stream took %v, want at least 120ms", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := p.Stream(ctx, &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "x")}}, func(llm.Event) {})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
}
