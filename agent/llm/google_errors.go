package llm

import (
	"bytes"
	"encoding/json"
	"time"
)

// googleError is the error body of Google's APIs (google.rpc.Status):
// {"error": {"code", "message", "status", "details": [...]}}.
type googleError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
		Details []struct {
			Type       string `json:"@type"`
			RetryDelay string `json:"retryDelay"` // RetryInfo: "37s", "0.5s"
			Reason     string `json:"reason"`     // ErrorInfo: "API_KEY_INVALID"
		} `json:"details"`
	} `json:"error"`
}

// unwrapArray returns the first element of a JSON array body (Vertex AI
// answers a streaming request's error as [{"error": ...}]), else body.
func unwrapArray(body []byte) []byte {
	t := bytes.TrimSpace(body)
	if len(t) == 0 || t[0] != '[' {
		return body
	}
	var arr []json.RawMessage
	if json.Unmarshal(t, &arr) != nil || len(arr) == 0 {
		return body
	}
	return arr[0]
}

// googleRetryDelay is the wait a Google error body asks for in its
// RetryInfo detail: Gemini's 429 RESOURCE_EXHAUSTED carries it there, not
// in a Retry-After header.
func googleRetryDelay(body []byte) (time.Duration, bool) {
	var g googleError
	if json.Unmarshal(unwrapArray(body), &g) != nil {
		return 0, false
	}
	for _, d := range g.Error.Details {
		if d.RetryDelay == "" {
			continue
		}
		if v, err := time.ParseDuration(d.RetryDelay); err == nil && v >= 0 {
			return v, true
		}
	}
	return 0, false
}

// googleBadKey reports whether a Google error body says the API key is
// not valid: Gemini answers a wrong key with 400 INVALID_ARGUMENT and the
// reason API_KEY_INVALID, not with 401.
func googleBadKey(body []byte) bool { return googleReason(body) == "API_KEY_INVALID" }

// googleReason is the ErrorInfo reason of a Google error body, or "".
func googleReason(body []byte) string {
	var g googleError
	if json.Unmarshal(unwrapArray(body), &g) != nil {
		return ""
	}
	for _, d := range g.Error.Details {
		if d.Reason != "" {
			return d.Reason
		}
	}
	return ""
}
