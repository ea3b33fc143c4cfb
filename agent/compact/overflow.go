package compact

import (
	"errors"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// overflowWordings are the phrases providers and local servers use when a
// request does not fit the model's context window, lower-cased. Anthropic
// says "prompt is too long"; OpenAI (and vLLM, DeepSeek and most
// OpenAI-compatible servers) "maximum context length" or the code
// context_length_exceeded; llama.cpp "exceeds the available context size";
// Ollama "input length exceeds the context length" or "prompt too long";
// Gemini "exceeds the maximum number of tokens allowed"; LM Studio "context
// length of only"; Bedrock "Input is too long for requested model" (its
// ValidationException; Claude there words it as Anthropic does).
var overflowWordings = []string{
	"prompt is too long",
	"prompt too long",
	"context_length_exceeded",
	"maximum context length",
	"context length exceeded",
	"exceeds the context window",
	"exceeds the available context size",
	"exceed_context_size",
	"exceeds the context length",
	"exceeds maximum context length",
	"longer than the maximum model length",
	"context window exceeded",
	"exceeds the maximum number of tokens allowed",
	"context length of only",
	"input is too long",
}

// IsOverflow reports whether err is a provider refusing a request because
// it does not fit the model's context window. Only a provider's answer
// counts (an *llm.Error with an HTTP status): a broken stream is not an
// overflow whatever its text says.
func IsOverflow(err error) bool {
	var e *llm.Error
	if !errors.As(err, &e) || e.Status == 0 {
		return false
	}
	switch e.Status {
	case 413:
		return true // request_too_large: the body itself is over the limit
	case 400, 422, 500:
		// Ollama answers an over-long prompt with a 500; the wording
		// below is specific enough not to catch a server's other errors.
	default:
		return false
	}
	msg := strings.ToLower(e.Message)
	for _, w := range overflowWordings {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
