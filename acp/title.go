package acp

import (
	"context"
	"errors"
)

// methodRenameSession is tandem's ACP extension method that names a
// session as the user chose (ACP 1.21 has no standard one). A session
// open in this process sends session_info_update with the new title; a
// title set this way is never replaced by a model-written one.
const methodRenameSession = "_tandem/session/rename"

// renameParams is _tandem/session/rename's params.
type renameParams struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
}

func (p *renameParams) Validate() error {
	if p.SessionID == "" {
		return errors.New("sessionId is required")
	}
	return nil
}

// RenameSession handles _tandem/session/rename: a stored session that is
// not open is renamed in the store. The answer is an empty object.
func (s *server) RenameSession(ctx context.Context, p renameParams) (struct{}, error) {
	a, err := s.agentFor(ctx)
	if err != nil {
		return struct{}{}, err
	}
	return struct{}{}, toRequestError(a.RenameSession(p.SessionID, p.Title))
}
