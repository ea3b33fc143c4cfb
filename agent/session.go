package agent

import (
	"context"
	"errors"

	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/tools"
)

// Session is one conversation in one working directory.
type Session struct {
	id   string
	root string
}

// NewSession starts a session in o.Cwd.
func (a *Agent) NewSession(ctx context.Context, o SessionOptions) (*Session, error) {
	return nil, errors.New("not implemented")
}

// LoadSession reopens stored session o.ID and replays its whole history
// through o.Host.Send before it returns.
func (a *Agent) LoadSession(ctx context.Context, o SessionOptions) (*Session, error) {
	return nil, errors.New("not implemented")
}

// ResumeSession reopens stored session o.ID without replaying it.
func (a *Agent) ResumeSession(ctx context.Context, o SessionOptions) (*Session, error) {
	return nil, errors.New("not implemented")
}

// ListSessions returns stored sessions, newest first; cwd filters when non-empty.
func (a *Agent) ListSessions(cwd string) ([]store.Meta, error) {
	return nil, errors.New("not implemented")
}

// Models lists the model ids an editor may offer.
func (a *Agent) Models() []string { return a.cfg.Models }

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Root returns the session root (absolute, symlinks resolved).
func (s *Session) Root() string { return s.root }

// Prompt runs one turn and returns when its last update has been sent.
func (s *Session) Prompt(ctx context.Context, prompt []ContentBlock) (StopReason, error) {
	return "", errors.New("not implemented")
}

// Cancel ends the running turn, if any, with StopCancelled.
func (s *Session) Cancel() {}

// Mode returns the current mode.
func (s *Session) Mode() Mode { return ModeCode }

// SetMode switches mode and sends current_mode_update.
func (s *Session) SetMode(m Mode) error { return errors.New("not implemented") }

// Model returns the current model id.
func (s *Session) Model() string { return "" }

// SetModel switches the model for the next request.
func (s *Session) SetModel(id string) error { return errors.New("not implemented") }

// Commands lists the slash commands the session offers.
func (s *Session) Commands() []Command { return nil }

// AddTools adds tools (MCP) to the catalog; the next model request sees them.
func (s *Session) AddTools(ts ...tools.Tool) {}

// RemoveTools drops the tools with the given names.
func (s *Session) RemoveTools(names ...string) {}

// Close stops the session. It is safe to call twice.
func (s *Session) Close() error { return nil }
