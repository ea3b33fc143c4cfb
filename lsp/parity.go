package lsp

import (
	"context"
	"encoding/json"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/mcp"
)

// The tandem/* methods that give LSP clients every session operation ACP
// has: model and config selectors, close, resume, delete, fork, the
// command list and usage. docs/lsp-protocol.md describes each.

type sessionParams struct {
	SessionID string `json:"sessionId"`
}

// decodeSession decodes params into p (which embeds sessionParams) and
// finds the session it names.
func (s *Server) decodeSession(params json.RawMessage, p any, id *string) (*session, error) {
	if err := decode(params, p); err != nil {
		return nil, err
	}
	return s.session(*id)
}

// decodeStored decodes params into p, which names by *id a session that
// need not be open on this connection, and returns the agent keeping it.
func (s *Server) decodeStored(ctx context.Context, params json.RawMessage, p any, id *string) (*agent.Agent, error) {
	if err := decode(params, p); err != nil {
		return nil, err
	}
	if *id == "" {
		return nil, invalidParams("sessionId is required")
	}
	return s.agentFor(ctx)
}

// setModel serves tandem/setModel {sessionId, modelId}.
func (s *Server) setModel(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		sessionParams
		ModelID string `json:"modelId"`
	}
	ss, err := s.decodeSession(params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	if err := ss.sess.SetModel(p.ModelID); err != nil {
		return nil, agentError(err)
	}
	return s.configOptionsOf(ss), nil
}

// configOption is one selector: mode, model or thought level, with its
// category (its id), as ACP's session config options carry it.
type configOption struct {
	agent.Selector
	Category string `json:"category"`
}

type configOptionsResult struct {
	ConfigOptions []configOption `json:"configOptions"`
}

// configOptionsOf lists ss's selectors.
func (s *Server) configOptionsOf(ss *session) configOptionsResult {
	var opts []configOption
	for _, sel := range ss.sess.Selectors() {
		opts = append(opts, configOption{Selector: sel, Category: sel.ID})
	}
	return configOptionsResult{opts}
}

// configOptions serves tandem/configOptions {sessionId}.
func (s *Server) configOptions(ctx context.Context, params json.RawMessage) (any, error) {
	var p sessionParams
	ss, err := s.decodeSession(params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	return s.configOptionsOf(ss), nil
}

// setConfigOption serves tandem/setConfigOption {sessionId, configId,
// value} and answers with every selector's new state. value is one of the
// selector's values, or for a switch also a JSON boolean, as ACP's boolean
// form sets it.
func (s *Server) setConfigOption(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		sessionParams
		ConfigID string          `json:"configId"`
		Value    json.RawMessage `json:"value"`
	}
	ss, err := s.decodeSession(params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	var on bool
	var value string
	switch {
	case json.Unmarshal(p.Value, &on) == nil && string(p.Value) != "null":
		err = ss.sess.SetToggle(p.ConfigID, on)
	case json.Unmarshal(p.Value, &value) == nil && string(p.Value) != "null":
		err = ss.sess.Select(p.ConfigID, value)
	default:
		return nil, invalidParams("value must be a string (a boolean for a switch), got %s", quote(string(p.Value)))
	}
	if err != nil {
		return nil, agentError(err)
	}
	return s.configOptionsOf(ss), nil
}

// closeSession serves tandem/closeSession {sessionId}: the running turn is
// cancelled and the session's resources freed; its history stays stored.
func (s *Server) closeSession(ctx context.Context, params json.RawMessage) (any, error) {
	var p sessionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ss := s.takeSession(p.SessionID)
	if ss == nil {
		return nil, invalidParams("no session %s on this connection", quote(p.SessionID))
	}
	return struct{}{}, agentError(ss.sess.Close())
}

// resumeSession serves tandem/resumeSession {sessionId, cwd, mcpServers}:
// tandem/loadSession without the replay, for a client that still shows
// the conversation.
func (s *Server) resumeSession(ctx context.Context, params json.RawMessage) (any, error) {
	ss, err := s.reopen(ctx, params, (*agent.Agent).ResumeSession)
	if err != nil {
		return nil, err
	}
	return struct {
		Modes modeState `json:"modes"`
	}{modesOf(ss.sess)}, nil
}

// deleteSession serves tandem/deleteSession {sessionId}: closed if open,
// then removed from disk.
func (s *Server) deleteSession(ctx context.Context, params json.RawMessage) (any, error) {
	var p sessionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if ss := s.takeSession(p.SessionID); ss != nil {
		ss.sess.Close()
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return nil, err
	}
	if err := a.DeleteSession(p.SessionID); err != nil {
		return nil, agentError(err)
	}
	return struct{}{}, nil
}

// forkSession serves tandem/forkSession {sessionId, cwd, mcpServers,
// additionalDirectories}: a copy of the stored session as it is now, opened
// under a new id. A non-empty additionalDirectories is the fork's whole list
// of further roots (the agent checks it as a new session's); omitted or
// empty, the fork keeps the parent's, as ACP's session/fork does.
func (s *Server) forkSession(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		sessionParams
		Cwd                   string       `json:"cwd"`
		McpServers            []mcp.Server `json:"mcpServers"`
		AdditionalDirectories []string     `json:"additionalDirectories"`
	}
	a, err := s.decodeStored(ctx, params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	var dirs []string // nil: the parent's
	if len(p.AdditionalDirectories) > 0 {
		dirs = p.AdditionalDirectories
	}
	ss := &session{srv: s, ready: true}
	sess, err := a.ForkSession(s.baseCtx, agent.SessionOptions{ID: p.SessionID, Cwd: p.Cwd, AdditionalRoots: dirs, Host: ss, MCPServers: p.McpServers})
	if err != nil {
		return nil, agentError(err)
	}
	ss.sess, ss.id = sess, sess.ID()
	s.addSession(ss)
	return newSessionResult{SessionID: ss.id, Modes: modesOf(sess)}, nil
}

// listCommands serves tandem/listCommands {sessionId}: the slash commands
// the session offers.
func (s *Server) listCommands(ctx context.Context, params json.RawMessage) (any, error) {
	var p sessionParams
	ss, err := s.decodeSession(params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	cmds := ss.sess.Commands()
	if cmds == nil {
		cmds = []agent.Command{}
	}
	return struct {
		Commands []agent.Command `json:"commands"`
	}{cmds}, nil
}

// usageTotals is one scope of tandem/usage's answer.
type usageTotals struct {
	llm.Usage
	Requests int      `json:"requests"`
	Cost     *float64 `json:"cost,omitempty"` // USD; absent when a model's price is unknown
}

func totalsOf(t agent.UsageTotals) usageTotals {
	out := usageTotals{Usage: t.Usage, Requests: t.Requests}
	if t.Priced {
		c := t.Cost
		out.Cost = &c
	}
	return out
}

// usage serves tandem/usage {sessionId}: tokens and cost of the last turn
// and of the whole session.
func (s *Server) usage(ctx context.Context, params json.RawMessage) (any, error) {
	var p sessionParams
	ss, err := s.decodeSession(params, &p, &p.SessionID)
	if err != nil {
		return nil, err
	}
	turn, total := ss.sess.Usage()
	return struct {
		Turn    usageTotals `json:"turn"`
		Session usageTotals `json:"session"`
	}{totalsOf(turn), totalsOf(total)}, nil
}
