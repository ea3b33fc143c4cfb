package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
)

// LoadSession reopens stored session o.ID and replays its whole history
// through o.Host.Send before it returns.
func (a *Agent) LoadSession(ctx context.Context, o SessionOptions) (*Session, error) {
	return a.reopen(ctx, o, true)
}

// ResumeSession reopens stored session o.ID without replaying it.
func (a *Agent) ResumeSession(ctx context.Context, o SessionOptions) (*Session, error) {
	return a.reopen(ctx, o, false)
}

func (a *Agent) reopen(ctx context.Context, o SessionOptions, replay bool) (*Session, error) {
	if a.cfg.Store == nil {
		return nil, fmt.Errorf("%w: sessions are not stored", ErrNoSession)
	}
	meta, recs, warnings, err := a.cfg.Store.Read(o.ID)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSession, err)
	}
	for _, w := range warnings {
		a.log.Warn("session log", "warning", w)
	}
	if o.Cwd == "" {
		o.Cwd = meta.Cwd
	}
	if o.Mode == "" {
		o.Mode = Mode(meta.Mode)
	}
	if o.Model == "" {
		o.Model = meta.Model
	}
	s, err := a.newSession(o)
	if err != nil {
		return nil, err
	}
	s.id = meta.ID
	s.st.title = meta.Title
	s.created = meta.Created
	var instr []json.RawMessage
	for _, r := range recs {
		switch r.Kind {
		case recMessage:
			var m llm.Message
			if err := json.Unmarshal(r.Data, &m); err != nil {
				a.log.Warn("session log: bad message skipped", "session", s.id, "err", err)
				continue
			}
			s.st.history = append(s.st.history, m)
		case recInstructions:
			instr = append(instr, r.Data)
		case recUsage:
			s.restoreUsage(r.Data)
		case recUpdate:
			if !replay {
				continue
			}
			var u Update
			if err := json.Unmarshal(r.Data, &u); err != nil {
				a.log.Warn("session log: bad update skipped", "session", s.id, "err", err)
				continue
			}
			o.Host.Send(u)
		}
	}
	s.restoreInstructions(instr)
	l, err := a.cfg.Store.OpenLog(s.id)
	if err != nil {
		return nil, err
	}
	s.log = l
	if err := s.start(ctx, o.MCPServers); err != nil {
		return nil, err
	}
	return s, nil
}
