package completion

import (
	"context"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// maxNextEditReply caps what a completion model may stream for one next
// edit: a few small blocks; past it the reply is cut (and then most
// likely dropped by the parse).
const maxNextEditReply = 16 << 10

// NextEditModel returns the engine's completion model as a next-edit
// model, or nil when the engine asks the chat provider (provider "chat":
// the caller's chat model is the same one).
func (e *Engine) NextEditModel() NextEditModel {
	if e == nil || e.cfg.Provider == "chat" {
		return nil
	}
	return fimNextEdit{w: e.wire}
}

// fimNextEdit asks a fill-in-the-middle model for the next edit. Such a
// model follows no instructions; it continues text. So the prompt is a
// document the reply continues: the instructions and excerpts as the text
// before the cursor, ending with the start of the first block, and
// nothing after the cursor. Whatever it writes goes through the same
// strict parse as a chat model's reply.
type fimNextEdit struct{ w wire }

func (f fimNextEdit) NextEdit(ctx context.Context, system, user string) (string, error) {
	p := &Prompt{Path: "NEXT_EDIT.md", Prefix: system + "\n\n" + user + markSearch, MaxTokens: nextEditMaxTokens}
	var b strings.Builder
	err := f.w.stream(ctx, p, func(s string) bool {
		b.WriteString(s)
		return b.Len() < maxNextEditReply
	})
	if err != nil {
		return "", err
	}
	return markSearch + b.String(), nil
}

// NextEditModels orders the models a next edit asks: the completion
// engine's first (e may be nil), then the chat provider's (chat may be
// nil). first is nil when there is neither.
func NextEditModels(e *Engine, chat llm.Provider, chatModel string) (first, fallback NextEditModel) {
	if chat != nil {
		fallback = ChatNextEdit{Provider: chat, Model: chatModel}
	}
	if first = e.NextEditModel(); first == nil {
		return fallback, nil
	}
	return first, fallback
}
