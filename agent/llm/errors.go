package llm

import (
	"errors"
	"fmt"
	"time"
)

// ErrNotConfigured is returned when no provider can be built from the
// configuration. Its message names the variables a user sets.
var ErrNotConfigured = errors.New("no model provider configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY (and optionally TANDEM_PROVIDER=anthropic|openai|gemini|vertex, TANDEM_MODEL)")

// Error is a failed provider request: an HTTP status the provider answered,
// or a stream that broke. It never carries the API key.
type Error struct {
	Provider string // "anthropic", "openai"
	Status   int    // HTTP status; 0 when the connection or stream failed
	Message  string // the provider's own message, or what broke
	// KeyEnv names the variable holding the key, set on 401/403 (and on a
	// 400 that says the key is invalid, as Google's APIs answer) so the
	// user knows what to fix: set means the credential was refused.
	KeyEnv string
	// Retryable reports whether the request may succeed if sent again.
	Retryable bool
	Err       error // underlying cause, if any
	// ContextSize and PromptTokens are what an error body states in
	// fields of their own about a request too long for the server
	// (llama.cpp's n_ctx and n_prompt_tokens); 0 when it does not.
	ContextSize, PromptTokens int

	retryAfter time.Duration // the server's Retry-After, used by Post
}

func (e *Error) Error() string {
	s := e.Provider + ": "
	if e.Status != 0 {
		s += fmt.Sprintf("HTTP %d: ", e.Status)
	}
	s += e.Message
	if e.KeyEnv != "" {
		s += fmt.Sprintf(" (check %s)", e.KeyEnv)
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }
