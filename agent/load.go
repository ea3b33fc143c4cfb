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
		// Skipped records (torn, corrupt, of a foreign version) are
		// reported; the rest of the session loads.
		a.log.Warn("session log", "warning", w)
	}
	if o.Cwd == "" {
		o.Cwd = meta.Cwd
	}
	if o.AdditionalRoots == nil {
		o.AdditionalRoots = meta.AdditionalDirectories
	}
	if o.Model == "" {
		o.Model = meta.Model
	}
	s, err := a.newSession(o)
	if err != nil {
		return nil, err
	}
	if o.Mode == "" && meta.Mode != "" {
		// A custom mode whose file is gone since leaves the session in
		// the default mode rather than unloadable.
		if m, err := s.custom.defs.modes.parse(meta.Mode); err == nil {
			s.st.mode = m // the actor is not running yet
		} else {
			a.log.Warn("stored session mode is gone; using the default", "session", meta.ID, "err", err)
		}
	}
	s.id = meta.ID
	s.st.title.text, s.st.title.by = meta.Title, meta.TitleBy
	s.st.effort, _ = llm.ParseEffort(meta.Effort) // an unknown level falls back to the default
	s.st.toggles = Toggles{SandboxOff: meta.SandboxOff, AutoCompactOff: meta.AutoCompactOff}
	s.created = meta.Created
	var instr []json.RawMessage
	open := map[string]bool{}        // tool calls (and compactions) the replay started and never ended
	compactions := map[string]bool{} // which of them are compactions
	var order []string
	nests := map[string]*Nesting{} // a subagent's calls: where they nest
	replayed := replayChunks{send: o.Host.Send}
	for _, r := range recs {
		switch r.Kind {
		case recMessage:
			var m llm.Message
			if err := json.Unmarshal(r.Data, &m); err != nil {
				a.log.Warn("session log: bad message skipped", "session", s.id, "err", err)
				continue
			}
			s.hist.msgs = append(s.hist.msgs, m)
		case recInstructions:
			instr = append(instr, r.Data)
		case recUsage:
			s.restoreUsage(r.Data)
		case recCompaction:
			s.hist.restoreCompaction(r.Data, &instr)
			s.hist.forgetMarkers()
		case recMarker, recRewind:
			s.hist.restoreMark(r.Kind, r.Data)
		case recUpdate:
			var u Update
			if err := json.Unmarshal(r.Data, &u); err != nil {
				a.log.Warn("session log: bad update skipped", "session", s.id, "err", err)
				continue
			}
			if id, ended, ok := toolCallState(u); ok {
				if !ended && !open[id] && (u.Type == ToolCallStarted || u.Type == CompactionUpdated) {
					order = append(order, id)
					nests[id] = u.Nest
				}
				open[id] = !ended
				compactions[id] = compactions[id] || u.Type == CompactionUpdated
			}
			if replay {
				replayed.add(u)
			}
		default:
			a.log.Warn("session log: record of an unknown kind skipped", "session", s.id, "kind", r.Kind)
		}
	}
	replayed.flush()
	var invented int
	s.hist.msgs, invented = repairHistory(s.hist.msgs)
	if invented > 0 {
		a.log.Warn("session log: tool calls without a result were marked interrupted", "session", s.id, "calls", invented)
	}
	s.custom.restoreInstructions(instr)
	s.custom.load()
	l, err := a.cfg.Store.OpenLog(s.id)
	if err != nil {
		return nil, err
	}
	s.log = l
	if err := s.start(ctx, o.MCPServers); err != nil {
		return nil, err
	}
	// Calls cut off by a crash end failed, in the log too, so every later
	// replay shows them where they happened.
	for _, id := range order {
		if !open[id] {
			continue
		}
		u := Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: id, Status: ToolFailed, Content: []ToolContent{TextContent(Interrupted)}}, Nest: nests[id]}
		if compactions[id] {
			u = Update{Type: CompactionUpdated, Compaction: &Compaction{ID: id, Status: CompactionFailed, Error: Interrupted}, Nest: nests[id]}
		}
		if replay {
			s.emit(u)
		} else {
			s.logOnly(u)
		}
	}
	s.out.flush()
	return s, nil
}

// toolCallState reads a replayed update's effect on a tool call or a
// compaction: its id and whether it reached a final status.
func toolCallState(u Update) (id string, ended, ok bool) {
	if c := u.Compaction; c != nil && u.Type == CompactionUpdated {
		return c.ID, c.Status != CompactionRunning, true
	}
	if u.Tool == nil || (u.Type != ToolCallStarted && u.Type != ToolCallUpdated) {
		return "", false, false
	}
	ended = u.Tool.Status == ToolCompleted || u.Tool.Status == ToolFailed
	return u.Tool.ID, ended, true
}
