package acp

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// session is one open agent session and what carries it to the client.
type session struct {
	id   string
	sess *agent.Session
	host *host
	out  *updates

	// cancels counts session/cancel: a prompt that one reached while it
	// was being handled answers stopReason cancelled whatever error the
	// turn ended with.
	cancels atomic.Uint64
}

// NewSession handles session/new.
func (s *server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if err := checkCwd(p.Cwd); err != nil {
		return sdk.NewSessionResponse{}, err
	}
	if err := checkAdditionalDirs(p.AdditionalDirectories); err != nil {
		return sdk.NewSessionResponse{}, err
	}
	servers, err := mcpServers(p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	caps, err := s.clientCaps()
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	h, out := s.newHost(caps)
	// The session outlives this request: it gets the connection's context.
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	sess, err := a.NewSession(s.ctx, agent.SessionOptions{Cwd: p.Cwd, AdditionalRoots: p.AdditionalDirectories, Host: h, MCPServers: servers})
	if err != nil {
		return sdk.NewSessionResponse{}, toRequestError(err)
	}
	ss := s.open(sess, h, out)
	s.announceCommandsAfterResponse(ctx, ss)
	return sdk.NewSessionResponse{
		SessionId:     sdk.SessionId(ss.id),
		Modes:         modeState(sess),
		ConfigOptions: s.configOptions(sess),
	}, nil
}

// CloseSession handles session/close: the running turn is cancelled and
// the session's resources are freed. Its history stays in the store.
func (s *server) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	s.sessionsMu.Lock()
	ss, ok := s.sessions[string(p.SessionId)]
	delete(s.sessions, string(p.SessionId))
	s.sessionsMu.Unlock()
	if !ok {
		return sdk.CloseSessionResponse{}, unknownSession(p.SessionId)
	}
	return sdk.CloseSessionResponse{}, toRequestError(ss.close())
}

// checkCwd enforces ACP's rule for cwd before the agent sees it.
func checkCwd(cwd string) error {
	if !filepath.IsAbs(cwd) {
		return invalidParams("cwd must be an absolute path, got %q", cwd)
	}
	st, err := os.Stat(cwd)
	if err != nil {
		return invalidParams("cwd %q cannot be used: %v", cwd, err)
	}
	if !st.IsDir() {
		return invalidParams("cwd %q is not a directory", cwd)
	}
	return nil
}

// newHost makes the host and update writer for a session about to be
// created, for a client with caps; updates are held until the session has
// its id.
func (s *server) newHost(caps sdk.ClientCapabilities) (*host, *updates) {
	out := newUpdates(s.conn, s.ctx, s.log)
	return &host{srv: s, out: out, caps: caps, local: s.local, unstable: s.optedIn(), compaction: s.showsCompaction()}, out
}

// open registers a created or loaded session and starts its update stream.
// A session of the same id already open here is replaced and closed.
func (s *server) open(sess *agent.Session, h *host, out *updates) *session {
	ss := &session{id: sess.ID(), sess: sess, host: h, out: out}
	h.bind(ss.id)
	out.bind(ss.id)
	s.sessionsMu.Lock()
	prev := s.sessions[ss.id]
	s.sessions[ss.id] = ss
	s.sessionsMu.Unlock()
	if prev != nil {
		if err := prev.close(); err != nil {
			s.log.Warn("acp: closing the replaced session", "session", ss.id, "err", err)
		}
	}
	return ss
}

// lookup finds an open session.
func (s *server) lookup(id sdk.SessionId) (*session, error) {
	s.sessionsMu.Lock()
	ss, ok := s.sessions[string(id)]
	s.sessionsMu.Unlock()
	if !ok {
		return nil, unknownSession(id)
	}
	return ss, nil
}

// announceCommandsAfterResponse sends available_commands_update once the
// response of the request handled under ctx (the one that names the
// session) is on the wire: clients that see updates for a session id they
// have not been told about yet drop them or hang. It goes through the
// session's stream, in order with the session's own updates.
func (s *server) announceCommandsAfterResponse(ctx context.Context, ss *session) {
	jsonrpc.AfterResponse(ctx, ss.sess.CommandsChanged)
}

// closeAll closes every session; the connection is gone.
func (s *server) closeAll() {
	s.sessionsMu.Lock()
	all := s.sessions
	s.sessions = make(map[string]*session)
	s.sessionsMu.Unlock()
	for _, ss := range all {
		if err := ss.close(); err != nil {
			s.log.Warn("acp: closing a session", "session", ss.id, "err", err)
		}
	}
}

// close stops the session; its stream hands its last updates to the
// connection before Close returns.
func (ss *session) close() error { return ss.sess.Close() }
