package lsp

import (
	"context"
	"encoding/json"

	"github.com/tandemhq/tandem/agent/instructions"
)

// instructions serves tandem/instructions: the workspace instruction files
// (AGENTS.md, CLAUDE.md, ...) the session has loaded, with their digests.
func (s *Server) instructions(_ context.Context, params json.RawMessage) (any, error) {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ss, err := s.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	scopes := ss.sess.Instructions()
	if scopes == nil {
		scopes = []instructions.Scope{}
	}
	return struct {
		Scopes []instructions.Scope `json:"scopes"`
	}{scopes}, nil
}
