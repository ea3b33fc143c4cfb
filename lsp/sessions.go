package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// agentError gives agent errors their JSON-RPC codes; the messages already
// say what to do.
func agentError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, agent.ErrNoSession), errors.Is(err, agent.ErrInvalidCwd), errors.Is(err, agent.ErrUnknownMode),
		errors.Is(err, agent.ErrUnknownModel), errors.Is(err, agent.ErrUnknownEffort), errors.Is(err, agent.ErrUnknownSelector),
		errors.Is(err, agent.ErrEmptyTitle):
		return rpcError(jsonrpc.CodeInvalidParams, err.Error())
	case errors.Is(err, agent.ErrClosed), errors.Is(err, agent.ErrNotConfigured):
		return rpcError(codeRequestFailed, err.Error())
	}
	return err
}

type modeState struct {
	CurrentModeID  agent.Mode       `json:"currentModeId"`
	AvailableModes []agent.ModeInfo `json:"availableModes"`
}

func modesOf(sess *agent.Session) modeState {
	return modeState{CurrentModeID: sess.Mode(), AvailableModes: sess.Modes()}
}

type newSessionParams struct {
	Cwd        string       `json:"cwd"`
	Mode       string       `json:"mode"`
	McpServers []mcp.Server `json:"mcpServers"` // ACP's shapes
	// AdditionalDirectories, when non-empty, are the session's further
	// roots instead of the client's other workspace folders.
	AdditionalDirectories []string `json:"additionalDirectories"`
}

type newSessionResult struct {
	SessionID string    `json:"sessionId"`
	Modes     modeState `json:"modes"`
}

// newSession serves tandem/newSession. cwd defaults to the first
// workspace folder.
func (s *Server) newSession(ctx context.Context, params json.RawMessage) (any, error) {
	var p newSessionParams
	if len(params) > 0 && string(params) != "null" {
		if err := decode(params, &p); err != nil {
			return nil, err
		}
	}
	ss, err := s.startSession(ctx, p.Cwd, p.Mode, p.McpServers, p.AdditionalDirectories)
	if err != nil {
		return nil, err
	}
	// Updates the session produced while starting go out once the client
	// has its id, after this response.
	jsonrpc.AfterResponse(ctx, ss.release)
	return newSessionResult{SessionID: ss.id, Modes: modesOf(ss.sess)}, nil
}

// startSession creates a session; its updates are held until release.
// Its further roots are dirs, or when dirs is empty the client's other
// workspace folders.
func (s *Server) startSession(ctx context.Context, cwd, mode string, servers []mcp.Server, dirs []string) (*session, error) {
	a, err := s.agentFor(ctx)
	if err != nil {
		return nil, err
	}
	if cwd == "" {
		cwd = s.defaultFolder()
		if cwd == "" {
			return nil, invalidParams("cwd is required: the client named no workspace folder")
		}
	}
	if mode == "" {
		s.stateMu.Lock()
		mode = s.defaultMode
		s.stateMu.Unlock()
	}
	ss := &session{srv: s}
	// The session outlives this request: it gets the connection's context.
	if len(dirs) == 0 {
		dirs = s.additionalFolders(cwd)
	}
	sess, err := a.NewSession(s.baseCtx, agent.SessionOptions{Cwd: cwd, AdditionalRoots: dirs, Mode: agent.Mode(mode), Host: ss, MCPServers: servers})
	if err != nil {
		return nil, agentError(err)
	}
	ss.sess, ss.id = sess, sess.ID()
	s.addSession(ss)
	ss.announceCommands()
	return ss, nil
}

type loadSessionParams struct {
	SessionID  string       `json:"sessionId"`
	Cwd        string       `json:"cwd"`
	McpServers []mcp.Server `json:"mcpServers"`
}

// loadSession serves tandem/loadSession: the stored history is replayed as
// tandem/update notifications before the response.
func (s *Server) loadSession(ctx context.Context, params json.RawMessage) (any, error) {
	ss, err := s.reopen(ctx, params, (*agent.Agent).LoadSession)
	if err != nil {
		return nil, err
	}
	// After the replay and the response, as for a new session.
	jsonrpc.AfterResponse(ctx, ss.announceCommands)
	return struct {
		Modes modeState `json:"modes"`
	}{modesOf(ss.sess)}, nil
}

// reopen opens the stored session params name with how (the agent's load
// or resume), replacing one this connection has open under that id.
func (s *Server) reopen(ctx context.Context, params json.RawMessage, how func(*agent.Agent, context.Context, agent.SessionOptions) (*agent.Session, error)) (*session, error) {
	var p loadSessionParams
	a, err := s.decodeStored(ctx, params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	if old := s.takeSession(p.SessionID); old != nil {
		old.sess.Close()
	}
	ss := &session{srv: s, id: p.SessionID, ready: true}
	sess, err := how(a, s.baseCtx, agent.SessionOptions{ID: p.SessionID, Cwd: p.Cwd, Host: ss, MCPServers: p.McpServers})
	if err != nil {
		return nil, agentError(err)
	}
	ss.sess = sess
	s.addSession(ss)
	return ss, nil
}

type sessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	// AdditionalDirectories are the session's further roots, as ACP's
	// session/list gives them.
	AdditionalDirectories []string  `json:"additionalDirectories,omitempty"`
	Title                 string    `json:"title,omitempty"`
	Mode                  string    `json:"mode,omitempty"`
	UpdatedAt             time.Time `json:"updatedAt"`
}

func (s *Server) listSessions(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Cwd string `json:"cwd"`
	}
	if len(params) > 0 && string(params) != "null" {
		if err := decode(params, &p); err != nil {
			return nil, err
		}
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return nil, err
	}
	metas, err := a.ListSessions(p.Cwd)
	if err != nil {
		return nil, agentError(err)
	}
	out := make([]sessionInfo, 0, len(metas))
	for _, m := range metas {
		out = append(out, sessionInfo{SessionID: m.ID, Cwd: m.Cwd, AdditionalDirectories: m.AdditionalDirectories, Title: m.Title, Mode: m.Mode, UpdatedAt: m.Updated})
	}
	return struct {
		Sessions []sessionInfo `json:"sessions"`
	}{out}, nil
}

func (s *Server) setMode(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		SessionID string `json:"sessionId"`
		ModeID    string `json:"modeId"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ss, err := s.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	if err := ss.sess.SetMode(agent.Mode(p.ModeID)); err != nil {
		return nil, agentError(err)
	}
	return struct{}{}, nil
}

// session looks up a session this connection started or loaded.
func (s *Server) session(id string) (*session, error) {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	if ss := s.sessions[id]; ss != nil {
		return ss, nil
	}
	return nil, rpcError(jsonrpc.CodeInvalidParams, "no session "+quote(id)+" on this connection: call tandem/newSession or tandem/loadSession first")
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func (s *Server) addSession(ss *session) {
	s.sessionsMu.Lock()
	s.sessionSeq++
	ss.seq = s.sessionSeq
	s.sessions[ss.id] = ss
	s.sessionsMu.Unlock()
}

func (s *Server) takeSession(id string) *session {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	ss := s.sessions[id]
	delete(s.sessions, id)
	return ss
}

func (s *Server) allSessions() []*session {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	out := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		out = append(out, ss)
	}
	return out
}

// cancelPrompts stops every running turn (shutdown).
func (s *Server) cancelPrompts() {
	for _, ss := range s.allSessions() {
		ss.sess.Cancel()
	}
}

func (s *Server) closeSessions() {
	s.sessionsMu.Lock()
	all := s.sessions
	s.sessions = map[string]*session{}
	s.sessionsMu.Unlock()
	for _, ss := range all {
		if err := ss.sess.Close(); err != nil {
			s.log.Warn("closing session", "session", ss.id, "err", err)
		}
	}
}

func (s *Server) defaultFolder() string {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if len(s.folders) == 0 {
		return ""
	}
	return s.folders[0]
}

func (s *Server) didChangeWorkspaceFolders(_ context.Context, params json.RawMessage) error {
	var p struct {
		Event struct {
			Added   []struct{ URI string } `json:"added"`
			Removed []struct{ URI string } `json:"removed"`
		} `json:"event"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	var removed []string
	s.stateMu.Lock()
	for _, r := range p.Event.Removed {
		if path, err := uriToPath(r.URI); err == nil {
			for i, f := range s.folders {
				if f == path {
					s.folders = append(s.folders[:i], s.folders[i+1:]...)
					removed = append(removed, path)
					break
				}
			}
		}
	}
	for _, a := range p.Event.Added {
		if path, err := uriToPath(a.URI); err == nil && !slices.Contains(s.folders, path) {
			s.folders = append(s.folders, path)
		}
	}
	s.stateMu.Unlock()
	// A removed folder's index goes; an added one is indexed when first
	// searched. Sessions keep the roots they started with (their system
	// prompt names them); sessions started later take the new folders.
	for _, path := range removed {
		s.indexes.drop(path)
	}
	return nil
}
