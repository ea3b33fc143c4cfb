package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// UserPrompt contributors add context to the prompt or block it before the
// model sees it; slash commands do not reach them.
func TestUserPromptSeam(t *testing.T) {
	f, s, _, _ := pipelineSession(t, func(p *Pipeline, _ string) {
		p.UserPrompt = append(p.UserPrompt,
			func(_ context.Context, e TurnStartEvent) (string, error) { return "ctx one", nil },
			func(_ context.Context, e TurnStartEvent) (string, error) {
				if strings.Contains(promptText(e.Prompt), "secret") {
					return "", errors.New("no secrets")
				}
				return "ctx two", nil
			})
	})
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if r, err := s.Prompt(context.Background(), prompt("hello")); err != nil || r != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	if got := f.srv.Requests()[0].LastUserText(); !strings.Contains(got, "hello") || !strings.Contains(got, "ctx one\n\nctx two") {
		t.Errorf("first request: %q", got)
	}
	if r, err := s.Prompt(context.Background(), prompt("the secret")); err != nil || r != StopRefusal {
		t.Fatalf("blocked Prompt = %q, %v", r, err)
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Errorf("the blocked prompt was sent (%d requests)", n)
	}
}

// A BeforeStop contributor's reason makes the model go on, as a user
// message; Continued counts the rounds it forced.
func TestBeforeStopSeam(t *testing.T) {
	var seen []int
	f, s, _, _ := pipelineSession(t, func(p *Pipeline, _ string) {
		p.BeforeStop = append(p.BeforeStop, func(_ context.Context, e StopEvent) string {
			seen = append(seen, e.Continued)
			if e.Continued < 2 {
				return "keep going"
			}
			return ""
		})
	})
	f.srv.Enqueue(llmtest.Reply{Text: []string{"a"}}, llmtest.Reply{Text: []string{"b"}}, llmtest.Reply{Text: []string{"c"}})
	if r, err := s.Prompt(context.Background(), prompt("go")); err != nil || r != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 3 || reqs[2].LastUserText() != "keep going" {
		t.Fatalf("%d requests", len(reqs))
	}
	if len(seen) != 3 || seen[0] != 0 || seen[2] != 2 {
		t.Errorf("Continued seen %v", seen)
	}
}
