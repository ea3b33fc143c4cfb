package llmtest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// WindowStyle is how a local model server reports its context window.
type WindowStyle string

const (
	VLLM     WindowStyle = "vllm"      // GET /v1/models: data[].max_model_len
	LlamaCpp WindowStyle = "llama.cpp" // GET /props: default_generation_settings.n_ctx
	Ollama   WindowStyle = "ollama"    // POST /api/show: model_info["<arch>.context_length"]
	// LMStudio's own REST API: GET /api/v0/models, data[].loaded_context_length
	// (the window the model was loaded with) beside max_context_length.
	LMStudio WindowStyle = "lmstudio"
	// OpenRouter: GET /api/v1/models, data[].context_length.
	OpenRouter WindowStyle = "openrouter"
)

type windowReport struct {
	style  WindowStyle
	model  string
	tokens int
}

// ReportWindow makes the server answer the metadata route of style with a
// context window of tokens for model, as that server does. Other routes
// keep answering 404, like a server of that kind.
func (s *Server) ReportWindow(style WindowStyle, model string, tokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = &windowReport{style, model, tokens}
}

// serveWindow answers a metadata request; false when r is not one the
// configured style serves.
func (s *Server) serveWindow(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	rep := s.window
	s.mu.Unlock()
	if rep == nil {
		return false
	}
	var body any
	switch {
	case rep.style == VLLM && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v1/models"):
		body = map[string]any{"object": "list", "data": []any{
			map[string]any{"id": rep.model, "object": "model", "owned_by": "vllm", "max_model_len": rep.tokens},
			map[string]any{"id": rep.model + "-other", "object": "model", "max_model_len": 1},
		}}
	case rep.style == OpenRouter && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v1/models"):
		body = map[string]any{"data": []any{
			map[string]any{"id": rep.model + "-other", "context_length": 1, "top_provider": map[string]any{"context_length": 1, "max_completion_tokens": 1}},
			map[string]any{"id": rep.model, "name": "A model", "context_length": rep.tokens,
				"top_provider": map[string]any{"context_length": rep.tokens, "max_completion_tokens": 16384, "is_moderated": false}},
		}}
	case rep.style == LMStudio && r.Method == http.MethodGet && r.URL.Path == "/api/v0/models":
		body = map[string]any{"object": "list", "data": []any{
			map[string]any{"id": rep.model + "-other", "object": "model", "type": "llm", "state": "not-loaded", "max_context_length": 1},
			map[string]any{"id": rep.model, "object": "model", "type": "llm", "state": "loaded", "arch": "qwen3",
				"loaded_context_length": rep.tokens, "max_context_length": rep.tokens * 4},
		}}
	case rep.style == LlamaCpp && r.Method == http.MethodGet && r.URL.Path == "/props":
		body = map[string]any{"default_generation_settings": map[string]any{"n_ctx": rep.tokens}, "total_slots": 1}
	case rep.style == Ollama && r.Method == http.MethodPost && r.URL.Path == "/api/show":
		var req struct {
			Model string `json:"model"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != rep.model {
			http.Error(w, `{"error":"model not found"}`, http.StatusNotFound)
			return true
		}
		body = map[string]any{"model_info": map[string]any{"general.architecture": "llama", "llama.context_length": rep.tokens}}
	default:
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
	return true
}
