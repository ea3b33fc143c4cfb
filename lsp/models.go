package lsp

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/tandemhq/tandem/agent"
)

// modelState is the session's model and the ones it may switch to, in
// ACP's SessionModelState shape, so an editor can offer a model picker.
type modelState struct {
	CurrentModelID  string      `json:"currentModelId"`
	AvailableModels []modelInfo `json:"availableModels"`
}

type modelInfo struct {
	ModelID string `json:"modelId"`
	Name    string `json:"name"`
}

func (s *Server) modelsOf(sess *agent.Session) modelState {
	cur := sess.Model()
	ids := s.agent.Models()
	if !slices.Contains(ids, cur) {
		ids = append([]string{cur}, ids...)
	}
	out := modelState{CurrentModelID: cur, AvailableModels: make([]modelInfo, len(ids))}
	for i, id := range ids {
		out.AvailableModels[i] = modelInfo{ModelID: id, Name: id}
	}
	return out
}

// setModel serves tandem/setModel: the next request of the session uses
// the model. An id the agent does not offer is refused with the list.
func (s *Server) setModel(_ context.Context, params json.RawMessage) (any, error) {
	var p struct {
		SessionID string `json:"sessionId"`
		ModelID   string `json:"modelId"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ss, err := s.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	if p.ModelID != ss.sess.Model() {
		if err := s.agent.CheckModel(p.ModelID); err != nil {
			return nil, invalidParams("%v", err)
		}
	}
	if err := ss.sess.SetModel(p.ModelID); err != nil {
		return nil, agentError(err)
	}
	return s.modelsOf(ss.sess), nil
}
