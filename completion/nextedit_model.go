package completion

import (
	"context"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// nextEditMaxTokens bounds a reply: a few small blocks.
const nextEditMaxTokens = 1024

// ChatNextEdit asks a chat model (the agent's provider) for the next edit:
// the fallback when the completion model cannot follow instructions.
type ChatNextEdit struct {
	Provider llm.Provider
	Model    string
}

// NextEdit implements NextEditModel.
func (c ChatNextEdit) NextEdit(ctx context.Context, system, user string) (string, error) {
	resp, err := c.Provider.Stream(ctx, &llm.Request{
		Model:     c.Model,
		System:    system,
		Messages:  []llm.Message{llm.Text(llm.RoleUser, user)},
		MaxTokens: nextEditMaxTokens,
		Effort:    llm.EffortOff,
	}, func(llm.Event) {})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range resp.Message.Content {
		if p.Type == llm.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}
