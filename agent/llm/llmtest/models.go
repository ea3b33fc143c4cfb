package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
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

// GeminiModel is a model the Gemini API lists, with its token limits.
type GeminiModel struct {
	ID            string
	Input, Output int
}

// ServeGeminiModels makes GET /v1beta/models list models (in pages of
// two, so a client must follow nextPageToken) and GET
// /v1beta/models/{id} describe one (404 for others), as the Gemini API
// does; both record their headers (ModelsHeaders). An embedding model
// that cannot generate content is listed too, as the API lists it.
func (s *Server) ServeGeminiModels(models ...GeminiModel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.geminiModels = models
}

func geminiModelJSON(m GeminiModel, methods ...string) map[string]any {
	return map[string]any{"name": "models/" + m.ID, "version": "001", "displayName": m.ID, "inputTokenLimit": m.Input, "outputTokenLimit": m.Output,
		"supportedGenerationMethods": methods, "thinking": true}
}

// serveGeminiModels answers the Gemini API's models routes; false when r
// is not one or no list is configured.
func (s *Server) serveGeminiModels(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/v1beta/models") {
		return false
	}
	s.mu.Lock()
	list := s.geminiModels
	if list != nil {
		s.modelsAsked = append(s.modelsAsked, r.Header.Clone())
	}
	s.mu.Unlock()
	if list == nil {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	if id, ok := strings.CutPrefix(r.URL.Path, "/v1beta/models/"); ok {
		for _, m := range list {
			if m.ID == id {
				json.NewEncoder(w).Encode(geminiModelJSON(m, "generateContent", "countTokens"))
				return true
			}
		}
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, googleError(http.StatusNotFound, "", "models/"+id+" is not found for API version v1beta, or is not supported for generateContent."))
		return true
	}
	all := []map[string]any{geminiModelJSON(GeminiModel{ID: "text-embedding-004", Input: 2048, Output: 1}, "embedContent")}
	for _, m := range list {
		all = append(all, geminiModelJSON(m, "generateContent", "countTokens", "createCachedContent"))
	}
	start, _ := strconv.Atoi(r.URL.Query().Get("pageToken"))
	end := min(start+2, len(all))
	page := map[string]any{"models": all[min(start, end):end]}
	if end < len(all) {
		page["nextPageToken"] = strconv.Itoa(end)
	}
	json.NewEncoder(w).Encode(page)
	return true
}
