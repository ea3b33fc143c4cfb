package bedrock

import (
	"net/http"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// exception maps an exception the stream reports to the *llm.Error the
// HTTP answer with the same meaning would have been (Bedrock answers the
// same exceptions before a stream starts with these statuses), so retry,
// compaction and the editor's messages treat both alike. A
// ValidationException is an overflow when its message says so ("Input is
// too long for requested model"), which compaction reads from the text.
func exception(kind, msg string) *llm.Error {
	e := &llm.Error{Provider: name, Message: "error in response stream: " + msg}
	if kind != "" {
		e.Message = "error in response stream: " + kind + ": " + msg
	}
	switch strings.TrimSuffix(strings.ToLower(kind), "exception") {
	case "throttling", "modelnotready":
		e.Status, e.Retryable = http.StatusTooManyRequests, true
	case "validation", "servicequotaexceeded":
		e.Status = http.StatusBadRequest
	case "accessdenied", "unrecognizedclient", "expiredtoken":
		e.Status, e.KeyEnv = http.StatusForbidden, CredentialsHint
	case "modeltimeout":
		e.Status, e.Retryable = http.StatusRequestTimeout, true
	case "serviceunavailable":
		e.Status, e.Retryable = http.StatusServiceUnavailable, true
	case "internalserver", "modelstreamerror":
		e.Status, e.Retryable = http.StatusInternalServerError, true
	}
	return e
}
