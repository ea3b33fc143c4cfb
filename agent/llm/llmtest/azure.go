package llmtest

import (
	"net/http"
	"strconv"
	"strings"
)

// azureFormat is the Azure dialect of an OpenAI wire.
func azureFormat(f Format) Format {
	switch f {
	case Responses:
		return AzureResponses
	case OpenAI:
		return AzureChat
	}
	return f
}

// azurePath checks a request under /openai/ as Azure OpenAI does: the v1
// API (/openai/v1/…) takes an optional api-version of "preview" or
// "latest"; the older paths (/openai/deployments/{name}/…,
// /openai/responses) need a dated api-version. Anything else is Azure's
// 404. The credential is an api-key header or a Bearer token (Entra ID).
func azurePath(w http.ResponseWriter, r *http.Request) bool {
	version := r.URL.Query().Get("api-version")
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/openai/v1/"):
		if version != "" && version != "preview" && version != "latest" {
			writeError(w, AzureChat, http.StatusBadRequest, "", "API version not supported", "")
			return false
		}
	case strings.HasPrefix(p, "/openai/deployments/") || p == "/openai/responses":
		if version == "" {
			writeError(w, AzureChat, http.StatusNotFound, "", "Resource not found", "")
			return false
		}
	default:
		writeError(w, AzureChat, http.StatusNotFound, "", "Resource not found", "")
		return false
	}
	if r.Header.Get("Api-Key") == "" && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		writeError(w, AzureChat, http.StatusUnauthorized, "", "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.", "")
		return false
	}
	return true
}

// azureError is Azure OpenAI's error body: the status as a string code,
// or a content filter's code on refused content.
func azureError(status int, msg string) string {
	code := strconv.Itoa(status)
	if status == http.StatusBadRequest && strings.Contains(msg, "content management policy") {
		code = "content_filter"
	}
	return string(mustJSON(map[string]any{"error": map[string]any{"code": code, "message": msg}}))
}

// AzureDeployment is a deployment of the fake Azure OpenAI resource: its
// name, the model it serves and its status ("succeeded" when empty).
type AzureDeployment struct {
	ID, Model, Status string
}

// ServeAzureDeployments makes GET /openai/deployments list deployments
// as Azure OpenAI's data plane does: a dated api-version and a credential
// are required, and the request's headers are recorded (ModelsHeaders).
func (s *Server) ServeAzureDeployments(list ...AzureDeployment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.azureDeployments = list
}

func (s *Server) serveAzureDeployments(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || r.URL.Path != "/openai/deployments" {
		return false
	}
	s.mu.Lock()
	list := s.azureDeployments
	if list != nil {
		s.modelsAsked = append(s.modelsAsked, r.Header.Clone())
	}
	s.mu.Unlock()
	switch {
	case list == nil:
		return false
	case r.URL.Query().Get("api-version") == "":
		writeError(w, AzureChat, http.StatusNotFound, "", "Resource not found", "")
		return true
	case r.Header.Get("Api-Key") == "" && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "):
		writeError(w, AzureChat, http.StatusUnauthorized, "", "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.", "")
		return true
	}
	data := make([]map[string]any, len(list))
	for i, d := range list {
		status := d.Status
		if status == "" {
			status = "succeeded"
		}
		data[i] = map[string]any{"id": d.ID, "model": d.Model, "owner": "organization-owner", "object": "deployment",
			"status": status, "scale_settings": map[string]any{"scale_type": "standard"}, "created_at": 1700000000, "updated_at": 1700000000}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(mustJSON(map[string]any{"data": data, "object": "list"}))
	return true
}
