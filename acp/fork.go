package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
)

// forkRequest is session/fork's params (unstable in the schema). Its MCP
// servers are the stable type, which has the same shape.
type forkRequest struct {
	SessionId  sdk.SessionId   `json:"sessionId"`
	Cwd        string          `json:"cwd"`
	McpServers []sdk.McpServer `json:"mcpServers,omitempty"`
	// AdditionalDirectories, when given, are the fork's whole list of
	// further roots; omitted, the fork keeps the parent's, as
	// session/load and session/resume keep the stored ones.
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
}

type forkResponse struct {
	SessionId     sdk.SessionId             `json:"sessionId"`
	Modes         *sdk.SessionModeState     `json:"modes,omitempty"`
	ConfigOptions []sdk.SessionConfigOption `json:"configOptions,omitempty"`
}

// ForkSession handles session/fork: a copy of the session as it is now,
// opened on this connection under a new id; the original stays as it is.
func (s *server) ForkSession(ctx context.Context, p forkRequest) (forkResponse, error) {
	if p.SessionId == "" {
		return forkResponse{}, invalidParams("sessionId is required")
	}
	if err := checkCwd(p.Cwd); err != nil {
		return forkResponse{}, err
	}
	if err := checkAdditionalDirs(p.AdditionalDirectories); err != nil {
		return forkResponse{}, err
	}
	servers, err := mcpServers(p.McpServers)
	if err != nil {
		return forkResponse{}, err
	}
	var dirs []string // nil: the parent's
	if len(p.AdditionalDirectories) > 0 {
		dirs = p.AdditionalDirectories
	}
	caps, err := s.clientCaps()
	if err != nil {
		return forkResponse{}, err
	}
	h, out := s.newHost(caps)
	a, err := s.agentFor(ctx)
	if err != nil {
		return forkResponse{}, err
	}
	sess, err := a.ForkSession(s.ctx, agent.SessionOptions{ID: string(p.SessionId), Cwd: p.Cwd, AdditionalRoots: dirs, Host: h, MCPServers: servers})
	if err != nil {
		return forkResponse{}, toRequestError(err)
	}
	ss := s.open(sess, h, out)
	s.announceCommandsAfterResponse(ctx, ss)
	return forkResponse{SessionId: sdk.SessionId(ss.id), Modes: modeState(sess), ConfigOptions: s.configOptions(sess)}, nil
}

// DeleteSession handles session/delete: the session is closed if open
// (here or on another connection of this process) and removed from disk.
func (s *server) DeleteSession(ctx context.Context, p sdk.UnstableDeleteSessionRequest) (sdk.UnstableDeleteSessionResponse, error) {
	if p.SessionId == "" {
		return sdk.UnstableDeleteSessionResponse{}, invalidParams("sessionId is required")
	}
	s.sessionsMu.Lock()
	ss := s.sessions[string(p.SessionId)]
	delete(s.sessions, string(p.SessionId))
	s.sessionsMu.Unlock()
	if ss != nil {
		if err := ss.close(); err != nil {
			s.log.Warn("acp: closing a session before deleting it", "session", ss.id, "err", err)
		}
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.UnstableDeleteSessionResponse{}, err
	}
	if err := a.DeleteSession(string(p.SessionId)); err != nil {
		if ss == nil {
			return sdk.UnstableDeleteSessionResponse{}, unknownSession(p.SessionId)
		}
		return sdk.UnstableDeleteSessionResponse{}, toRequestError(err)
	}
	return sdk.UnstableDeleteSessionResponse{}, nil
}
