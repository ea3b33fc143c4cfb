package acp

import (
	"context"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
)

// LoadSession handles session/load: the agent replays the stored history
// through the host before it returns, and all of it is on the wire before
// the response.
func (s *server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	ss, err := s.reopen(p.SessionId, p.Cwd, p.AdditionalDirectories, p.McpServers, a.LoadSession)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	s.announceCommandsAfterResponse(ctx, ss)
	return sdk.LoadSessionResponse{Modes: modeState(ss.sess), ConfigOptions: s.configOptions(ss.sess)}, nil
}

// ResumeSession handles session/resume: like load, without the replay.
func (s *server) ResumeSession(ctx context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	ss, err := s.reopen(p.SessionId, p.Cwd, p.AdditionalDirectories, p.McpServers, a.ResumeSession)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	s.announceCommandsAfterResponse(ctx, ss)
	return sdk.ResumeSessionResponse{Modes: modeState(ss.sess), ConfigOptions: s.configOptions(ss.sess)}, nil
}

// reopen opens stored session id with load or resume.
func (s *server) reopen(id sdk.SessionId, cwd string, dirs []string, mcp []sdk.McpServer, how func(context.Context, agent.SessionOptions) (*agent.Session, error)) (*session, error) {
	if id == "" {
		return nil, invalidParams("sessionId is required")
	}
	if err := checkCwd(cwd); err != nil {
		return nil, err
	}
	if err := checkAdditionalDirs(dirs); err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		// Omitted or empty, the stored roots stay, as session/fork keeps
		// the parent's: a client sending [] means "nothing to change".
		dirs = nil
	}
	servers, err := mcpServers(mcp)
	if err != nil {
		return nil, err
	}
	caps, err := s.clientCaps()
	if err != nil {
		return nil, err
	}
	// Loading a session this connection has open replaces it.
	s.sessionsMu.Lock()
	prev := s.sessions[string(id)]
	delete(s.sessions, string(id))
	s.sessionsMu.Unlock()
	if prev != nil {
		if err := prev.close(); err != nil {
			s.log.Warn("acp: closing a session before reopening it", "session", prev.id, "err", err)
		}
	}
	h, out := s.newHost(caps)
	h.bind(string(id))
	// Replayed updates flow while the agent loads: the id is known already.
	out.bind(string(id))
	sess, err := how(s.ctx, agent.SessionOptions{ID: string(id), Cwd: cwd, AdditionalRoots: dirs, Host: h, MCPServers: servers})
	if err != nil {
		return nil, toRequestError(err)
	}
	return s.open(sess, h, out), nil
}

// listPageSize is how many sessions one session/list answer carries.
const listPageSize = 50

// ListSessions handles session/list: stored sessions, most recent first,
// optionally of one cwd. The cursor is the id of the last session of the
// previous page, which stays valid when newer sessions appear meanwhile.
func (s *server) ListSessions(ctx context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	cwd := ""
	if p.Cwd != nil {
		cwd = *p.Cwd
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.ListSessionsResponse{}, err
	}
	metas, err := a.ListSessions(cwd)
	if err != nil {
		return sdk.ListSessionsResponse{}, toRequestError(err)
	}
	start := 0
	if p.Cursor != nil && *p.Cursor != "" {
		start = -1
		for i, m := range metas {
			if m.ID == *p.Cursor {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return sdk.ListSessionsResponse{}, invalidParams("unknown cursor %q: list again without a cursor", *p.Cursor)
		}
	}
	end := min(start+listPageSize, len(metas))
	resp := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	for _, m := range metas[start:end] {
		info := sdk.SessionInfo{SessionId: sdk.SessionId(m.ID), Cwd: m.Cwd, AdditionalDirectories: m.AdditionalDirectories}
		if m.Title != "" {
			title := m.Title
			info.Title = &title
		}
		if !m.Updated.IsZero() {
			u := m.Updated.UTC().Format(time.RFC3339)
			info.UpdatedAt = &u
		}
		resp.Sessions = append(resp.Sessions, info)
	}
	if end < len(metas) {
		next := metas[end-1].ID
		resp.NextCursor = &next
	}
	return resp, nil
}
