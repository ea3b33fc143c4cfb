package lsp

import (
	"context"
	"encoding/json"
)

// renameSession serves tandem/renameSession {sessionId, title}: the title
// the user chose, kept from then on (no model-written title replaces it).
// An open session sends session_info_update; a stored one that is not
// open is renamed in the store.
func (s *Server) renameSession(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		sessionParams
		Title string `json:"title"`
	}
	a, err := s.decodeStored(ctx, params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	if err := a.RenameSession(p.SessionID, p.Title); err != nil {
		return nil, agentError(err)
	}
	return struct{}{}, nil
}
