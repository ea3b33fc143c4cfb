package completion

import (
	"context"
	"errors"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// chatWire asks a chat model for the middle: the fallback for users with
// no FIM model. The system prompt is fixed, so providers' prompt caches
// hold it; the answer is cleaned of the fences chat models add (clean.go).
type chatWire struct {
	p     llm.Provider
	model string
}

// cursorMark stands for the cursor in the chat prompt.
const cursorMark = "<CURSOR>"

const chatSystem = "You are a code completion engine. The user sends a file with the marker " + cursorMark +
	" where the cursor is. Reply with only the text to insert at the marker: no explanation, no code fences, " +
	"no repetition of the text before or after the marker. Reply with nothing if nothing fits."

func (w chatWire) stream(ctx context.Context, p *Prompt, emit func(string) bool) error {
	var b strings.Builder
	for _, c := range p.Context {
		b.WriteString("Context from ")
		b.WriteString(c.Path)
		b.WriteString(":\n")
		b.WriteString(c.Text)
		b.WriteString("\n\n")
	}
	b.WriteString("File ")
	b.WriteString(p.Path)
	b.WriteString(":\n")
	b.WriteString(p.Prefix)
	b.WriteString(cursorMark)
	b.WriteString(p.Suffix)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := false
	_, err := w.p.Stream(ctx, &llm.Request{
		Model: w.model, System: chatSystem, MaxTokens: p.MaxTokens, Effort: llm.EffortOff,
		Messages: []llm.Message{llm.Text(llm.RoleUser, b.String())},
	}, func(ev llm.Event) {
		if ev.Type != llm.EventText || stopped {
			return
		}
		if !emit(ev.Text) {
			stopped = true
			cancel()
		}
	})
	if stopped && errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func (w chatWire) describe() string {
	return w.model + " through the " + w.p.Name() + " chat provider, asked for the middle"
}
