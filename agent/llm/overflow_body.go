package llm

import "encoding/json"

// statedContext reads the numbers an overflow error body carries in
// fields rather than in its message: llama.cpp's server answers
// exceed_context_size_error with n_ctx (the context it was started with)
// and n_prompt_tokens (the request's size). Zeros when absent.
func statedContext(body []byte) (size, prompt int) {
	var v struct {
		Error struct {
			NCtx    int `json:"n_ctx"`
			NPrompt int `json:"n_prompt_tokens"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return 0, 0
	}
	return max(v.Error.NCtx, 0), max(v.Error.NPrompt, 0)
}
