package llmtest

import (
	"encoding/json"
	"net/http"
)

// ServeModels makes GET /v1/models list ids, in the shape both OpenAI and
// Anthropic use (data[].id), and record the headers it was asked with.
func (s *Server) ServeModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modelIDs = ids
}

// ModelsHeaders returns the headers of each /v1/models request so far.
func (s *Server) ModelsHeaders() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.modelsAsked...)
}

// serveModels answers a model list request; false when r is not one or no
// list is configured.
func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || r.URL.Path != "/v1/models" {
		return false
	}
	s.mu.Lock()
	ids := s.modelIDs
	if ids != nil {
		s.modelsAsked = append(s.modelsAsked, r.Header.Clone())
	}
	s.mu.Unlock()
	if ids == nil {
		return false
	}
	data := make([]map[string]string, len(ids))
	for i, id := range ids {
		data[i] = map[string]string{"id": id, "type": "model", "object": "model"}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "has_more": false})
	return true
}
