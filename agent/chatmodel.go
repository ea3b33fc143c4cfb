package agent

import "github.com/tandemhq/tandem/agent/llm"

// ChatModel returns the provider and default model sessions use, for work
// a front door does outside any session (next-edit suggestions when no
// completion model is configured). The provider is nil when none is.
func (a *Agent) ChatModel() (llm.Provider, string) { return a.cfg.Provider, a.cfg.Model }
