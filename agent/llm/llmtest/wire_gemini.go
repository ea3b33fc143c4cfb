package llmtest

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// The Gemini formats: the Gemini API and Vertex AI speak the same stream;
// Vertex also serves Anthropic's models through rawPredict, with
// Anthropic's stream.
const (
	// Gemini is POST /v1beta/models/{model}:streamGenerateContent?alt=sse.
	Gemini Format = "gemini"
	// VertexGemini is POST /v1/projects/{p}/locations/{l}/publishers/google/models/{model}:streamGenerateContent?alt=sse.
	VertexGemini Format = "vertex-gemini"
	// VertexAnthropic is POST /v1/projects/{p}/locations/{l}/publishers/anthropic/models/{model}:streamRawPredict,
	// an Anthropic Messages body without "model" and with anthropic_version.
	VertexAnthropic Format = "vertex-anthropic"
)

// VertexAnthropicVersion is the anthropic_version Vertex requires in the body.
const VertexAnthropicVersion = "vertex-2023-10-16"

// googleFormat reports whether f answers with Google's error bodies.
func googleFormat(f Format) bool { return f == Gemini || f == VertexGemini }

// anthropicStream reports whether f streams Anthropic's events.
func anthropicStream(f Format) bool { return f == Anthropic || f == VertexAnthropic }

// geminiFormat picks the format of a Google path: ":streamGenerateContent"
// on either API, ":streamRawPredict" for Vertex's Anthropic models.
func geminiFormat(path string) (Format, bool) {
	switch {
	case strings.HasSuffix(path, ":streamGenerateContent") && strings.Contains(path, "/projects/"):
		return VertexGemini, true
	case strings.HasSuffix(path, ":streamGenerateContent"):
		return Gemini, true
	case strings.HasSuffix(path, ":streamRawPredict") && strings.Contains(path, "/publishers/anthropic/"):
		return VertexAnthropic, true
	}
	return "", false
}

// pathModel is the model a Google path names: what follows "/models/"
// up to the method.
func pathModel(path string) string {
	_, after, ok := strings.Cut(path, "/models/")
	if !ok {
		return ""
	}
	m, _, _ := strings.Cut(after, ":")
	return m
}

// writeGemini streams reply as streamGenerateContent?alt=sse does: one
// GenerateContentResponse per event, no event names and no end marker;
// thoughts as parts with "thought": true, then text, then the function
// calls (parallel ones together in one chunk, each whole, with an id).
// usageMetadata comes with every chunk, complete in the last, which holds
// finishReason. The thought signature goes where Gemini puts it: on the
// first function call, else alone in an empty text part of the last chunk.
func writeGemini(s *stream, reply *Reply, req *Request) {
	u := reply.usage()
	usage := func(final bool) map[string]any {
		m := map[string]any{"promptTokenCount": u.InputTokens + u.CacheReadTokens, "totalTokenCount": u.InputTokens + u.CacheReadTokens + u.OutputTokens}
		if final {
			m["candidatesTokenCount"] = u.OutputTokens - u.ReasoningTokens
			if u.ReasoningTokens > 0 {
				m["thoughtsTokenCount"] = u.ReasoningTokens
			}
			if u.CacheReadTokens > 0 {
				m["cachedContentTokenCount"] = u.CacheReadTokens
				m["cacheTokensDetails"] = []any{map[string]any{"modality": "TEXT", "tokenCount": u.CacheReadTokens}}
			}
		}
		return m
	}
	id := fmt.Sprintf("resp-%d", req.N)
	send := func(parts []map[string]any, finish string) bool {
		cand := map[string]any{"content": map[string]any{"parts": parts, "role": "model"}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		return s.event("", map[string]any{"candidates": []any{cand}, "usageMetadata": usage(finish != ""), "modelVersion": req.Model, "responseId": id})
	}
	ok := true
	for _, c := range reply.Reasoning {
		ok = ok && send([]map[string]any{{"text": c, "thought": true}}, "")
	}
	for _, c := range reply.text(req) {
		ok = ok && send([]map[string]any{{"text": c}}, "")
	}
	sig := ""
	if len(reply.Reasoning) > 0 {
		sig = reply.signature()
	}
	var calls []map[string]any
	for i, tc := range reply.ToolCalls {
		args := tc.Args
		if args == "" {
			args = "{}"
		}
		call := map[string]any{"functionCall": map[string]any{"id": reply.callID(req, i), "name": tc.Name, "args": rawJSON(args)}}
		if i == 0 && sig != "" {
			call["thoughtSignature"], sig = sig, ""
		}
		calls = append(calls, call)
	}
	switch {
	case !ok:
		return
	case reply.StreamError != "":
		s.event("", map[string]any{"error": map[string]any{"code": 500, "message": reply.StreamError, "status": "INTERNAL"}})
		return
	case reply.Hang:
		s.hang()
		return
	case reply.NoFinish:
		if len(calls) > 0 {
			send(calls, "")
		}
		return
	}
	last := calls
	if sig != "" {
		last = append(last, map[string]any{"text": "", "thoughtSignature": sig})
	}
	finish := "STOP"
	switch llm.StopReason(reply.stop()) {
	case llm.StopMaxTokens:
		finish = "MAX_TOKENS"
	case llm.StopRefusal:
		finish = "SAFETY"
	case llm.StopEndTurn, llm.StopToolUse:
	default:
		finish = reply.stop() // a raw wire value
	}
	if last == nil {
		last = []map[string]any{{"text": ""}}
	}
	send(last, finish)
}

// rawJSON is JSON text embedded as is when mustJSON encodes it.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// googleError is a Google API's error body (google.rpc.Status) for
// status: the canonical status name, and for 429 and 503 the wait in a
// RetryInfo detail (Google sends no Retry-After header).
func googleError(status int, retryAfter, msg string) string {
	names := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
		429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
	name := names[status]
	if name == "" {
		name = "UNKNOWN"
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	e := map[string]any{"code": status, "message": msg, "status": name}
	if d, ok := retryDelay(retryAfter); ok {
		e["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": d}}
	}
	return string(mustJSON(map[string]any{"error": e}))
}

// retryDelay is a Retry-After value (seconds or an HTTP date) as a
// RetryInfo duration ("2s").
func retryDelay(v string) (string, bool) {
	if v == "" {
		return "", false
	}
	if t, err := http.ParseTime(v); err == nil {
		return fmt.Sprintf("%ds", max(int(time.Until(t).Round(time.Second).Seconds()), 0)), true
	}
	return v + "s", true
}
