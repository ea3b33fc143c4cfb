package llmtest

import (
	"net/http"
	"strconv"
	"strings"
)

// BedrockModel is a model Bedrock's control plane lists: a foundation
// model (ID "anthropic.claude-3-haiku-20240307-v1:0") or, with Profile
// set, a system-defined inference profile
// ("us.anthropic.claude-sonnet-4-20250514-v1:0").
type BedrockModel struct {
	ID      string
	Profile bool
	// OnDemand: the foundation model can be invoked by its own id; those
	// that cannot are served through inference profiles only.
	OnDemand bool
	// Embedding: it outputs embeddings, not text.
	Embedding bool
	// Legacy: its lifecycle status is LEGACY rather than ACTIVE.
	Legacy bool
}

// ServeBedrockModels makes the fake answer Bedrock's control-plane
// listings, SigV4-checked like its runtime: GET /foundation-models
// (modelSummaries, unfiltered whatever the query asks, so the client's
// own checks are exercised) and GET /inference-profiles
// (inferenceProfileSummaries in pages of one, so a client must follow
// nextToken). Both record their headers (ModelsHeaders).
func (s *Server) ServeBedrockModels(list ...BedrockModel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bedrockModels = list
}

func (s *Server) serveBedrockModels(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || (r.URL.Path != "/foundation-models" && r.URL.Path != "/inference-profiles") {
		return false
	}
	s.mu.Lock()
	list := s.bedrockModels
	if list != nil {
		s.modelsAsked = append(s.modelsAsked, r.Header.Clone())
	}
	s.mu.Unlock()
	if list == nil || !s.checkSigV4(w, r, nil) {
		return list != nil
	}
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/foundation-models" {
		var out []map[string]any
		for _, m := range list {
			if !m.Profile {
				out = append(out, bedrockFoundation(m))
			}
		}
		w.Write(mustJSON(map[string]any{"modelSummaries": out}))
		return true
	}
	var profiles []BedrockModel
	for _, m := range list {
		if m.Profile {
			profiles = append(profiles, m)
		}
	}
	start, _ := strconv.Atoi(r.URL.Query().Get("nextToken"))
	page := map[string]any{"inferenceProfileSummaries": []any{}}
	if start < len(profiles) {
		m := profiles[start]
		status := "ACTIVE"
		if m.Legacy {
			status = "LEGACY"
		}
		_, model, _ := strings.Cut(m.ID, ".")
		page["inferenceProfileSummaries"] = []any{map[string]any{
			"inferenceProfileId":   m.ID,
			"inferenceProfileName": "US " + model,
			"inferenceProfileArn":  "arn:aws:bedrock:" + AWSRegion + ":123456789012:inference-profile/" + m.ID,
			"status":               status,
			"type":                 "SYSTEM_DEFINED",
			"models":               []any{map[string]any{"modelArn": "arn:aws:bedrock:" + AWSRegion + "::foundation-model/" + model}},
		}}
		if start+1 < len(profiles) {
			page["nextToken"] = strconv.Itoa(start + 1)
		}
	}
	w.Write(mustJSON(page))
	return true
}

func bedrockFoundation(m BedrockModel) map[string]any {
	out, types, status := []string{"TEXT"}, []string{"PROVISIONED"}, "ACTIVE"
	if m.Embedding {
		out = []string{"EMBEDDING"}
	}
	if m.OnDemand {
		types = append(types, "ON_DEMAND")
	} else {
		types = []string{"INFERENCE_PROFILE"}
	}
	if m.Legacy {
		status = "LEGACY"
	}
	vendor, _, _ := strings.Cut(m.ID, ".")
	return map[string]any{
		"modelId": m.ID, "modelArn": "arn:aws:bedrock:" + AWSRegion + "::foundation-model/" + m.ID,
		"modelName": m.ID, "providerName": vendor,
		"inputModalities": []string{"TEXT", "IMAGE"}, "outputModalities": out,
		"responseStreamingSupported": !m.Embedding, "inferenceTypesSupported": types,
		"modelLifecycle": map[string]any{"status": status},
	}
}
