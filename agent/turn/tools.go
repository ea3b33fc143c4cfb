package turn

import "github.com/tandemhq/tandem/agent/llm"

// Calls runs a response's tool calls.
type Calls interface {
	// RunTools returns the calls' results in call order and the paths
	// they touched.
	RunTools(calls []llm.Part) ([]llm.Part, []string)
}

func (r *run) runTools(calls []llm.Part) ([]llm.Part, []string) {
	return r.s.RunTools(calls)
}
