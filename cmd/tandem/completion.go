package main

import (
	"errors"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/completion"
)

// newCompletion builds the inline-completion engine `tandem lsp` serves,
// or nil when completions are not configured. A configuration that cannot
// work (provider chat without a chat model, an unknown template) is
// logged and leaves completions off: the agent still serves the rest.
func (m *Main) newCompletion(cfg config.Config) *completion.Engine {
	if !cfg.Completion.Enabled() {
		return nil
	}
	o := completion.Options{Config: cfg.Completion, Log: m.logger(), Home: cfg.Home, UserHome: m.userHome()}
	if cfg.Completion.Provider == config.CompletionChat {
		p, err := newProvider(cfg, llm.Transport{})
		if err == nil && p != nil {
			o.Chat, o.ChatModel = p, cfg.Model
		}
	}
	if ic, err := instructions.LoadConfig(cfg.Home, m.Getenv); err == nil {
		o.InstructionFiles = ic.FileNames()
	} else {
		o.InstructionFiles = instructions.DefaultConfig(cfg.Home).FileNames()
	}
	e, err := completion.New(o)
	if err != nil && !errors.Is(err, completion.ErrOff) {
		m.logger().Warn("inline completions are off", "err", err)
	}
	return e
}
