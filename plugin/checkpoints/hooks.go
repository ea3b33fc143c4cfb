package checkpoints

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tandemhq/tandem/plugin/sdk"
)

// Plugin is the checkpoints plugin, to serve with Main.
func Plugin() *sdk.Plugin {
	var st *state
	p := &sdk.Plugin{
		Initialize: func(_ context.Context, h *sdk.Host, in sdk.InitializeParams) error {
			if in.SessionID == "" || filepath.Base(in.SessionID) != in.SessionID {
				return fmt.Errorf("unusable session id %q", in.SessionID)
			}
			st = load(filepath.Join(in.DataDir, "sessions", in.SessionID+".json"))
			return nil
		},
		Observes: []string{sdk.HookTurnStart, sdk.HookTurnEnd, sdk.HookAfterFileEdit},
	}
	p.BeforeFileEdit = func(ctx context.Context, h *sdk.Host, e sdk.BeforeFileEditParams) (sdk.BeforeFileEditResult, error) {
		return sdk.BeforeFileEditResult{}, st.before(ctx, h, e)
	}
	p.Observe = func(ctx context.Context, h *sdk.Host, hook string, raw json.RawMessage) {
		if hook == sdk.HookTurnEnd {
			st.endTurn(h)
			return
		}
		if err := st.observe(hook, raw); err != nil {
			h.Log(ctx, "warn", "checkpoints not saved: "+err.Error())
		}
	}
	p.Shutdown = func(ctx context.Context, _ *sdk.Host) {
		if st != nil {
			st.waitEnded(ctx)
		}
	}
	p.Commands = commands(func() *state { return st })
	return p
}

// before records a file's content before the turn's first edit of it;
// the turn's first edit opens its checkpoint and marks the conversation
// there (the marker points before the turn's prompt).
func (s *state) before(ctx context.Context, h *sdk.Host, e sdk.BeforeFileEditParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		c := &checkpoint{N: s.Next, Prompt: s.prompt}
		if err := h.Marker(ctx, marker(c.N)); err != nil {
			h.Log(ctx, "warn", "no conversation marker for checkpoint: "+err.Error())
		}
		s.Next++
		s.cur = c
		s.List = append(s.List, c)
	}
	f := s.cur.file(e.Path)
	if f != nil {
		// Nothing saved changes: the edit's outcome is the afterFileEdit's.
		f.pending, f.pendingExists = e.After, !e.Delete
		return nil
	}
	f = &file{Path: e.Path, Existed: e.Exists, Before: e.Before}
	s.cur.Files = append(s.cur.Files, f)
	f.pending, f.pendingExists = e.After, !e.Delete
	return s.note(entry{N: s.cur.N, Prompt: s.cur.Prompt, File: f})
}

func marker(n int) string { return fmt.Sprintf("checkpoint-%d", n) }

// endTurn puts the turn's checkpoint on stable storage without holding up
// the turn's answer, which waits for the turnEnd hook when tandem calls
// the plugin in its own process: the work runs on a goroutine of its own
// that holds mu, taken here, so every later hook and command waits for
// it. ended counts it, for Shutdown.
func (s *state) endTurn(h *sdk.Host) {
	s.mu.Lock()
	s.ended.Add(1)
	go func() {
		defer s.ended.Done()
		defer s.mu.Unlock()
		if err := s.observeLocked(sdk.HookTurnEnd, nil); err != nil {
			// The hook's context ended with the hook.
			h.Log(context.Background(), "warn", "checkpoints not saved: "+err.Error())
		}
	}()
}

// waitEnded waits for the last turn's end to be on storage, or ctx.
func (s *state) waitEnded(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		s.ended.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// observe follows the turn; the turn's end puts its checkpoint on stable
// storage.
func (s *state) observe(hook string, raw json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.observeLocked(hook, raw)
}

// observeLocked is observe with mu held.
func (s *state) observeLocked(hook string, raw json.RawMessage) error {
	switch hook {
	case sdk.HookTurnStart:
		var m sdk.MessageParams
		json.Unmarshal(raw, &m)
		s.prompt = m.Text
		if s.cur != nil && s.cur.Prompt == "" && m.Text != "" {
			s.cur.Prompt = m.Text
			return s.note(entry{N: s.cur.N, Prompt: m.Text})
		}
	case sdk.HookTurnEnd:
		var err error
		if s.cur != nil && len(s.cur.Files) == 0 {
			s.List = s.List[:len(s.List)-1] // every edit was refused
			err = s.note(entry{N: s.cur.N, Gone: true})
		}
		s.cur, s.prompt = nil, ""
		return errors.Join(err, s.closeJournal(), s.compacted(), s.synced.Sync())
	case sdk.HookAfterFileEdit:
		var e sdk.AfterFileEditParams
		json.Unmarshal(raw, &e)
		if s.cur == nil {
			return nil
		}
		f := s.cur.file(e.Path)
		if f == nil {
			return nil
		}
		switch {
		case e.Applied:
			f.After, f.AfterExists, f.Applied = f.pending, f.pendingExists, true
			return s.note(entry{N: s.cur.N, Prompt: s.cur.Prompt, File: f})
		case !f.Applied:
			s.cur.Files = dropFile(s.cur.Files, f)
			return s.note(entry{N: s.cur.N, Drop: f.Path})
		}
	}
	return nil
}

func dropFile(fs []*file, f *file) []*file {
	out := fs[:0]
	for _, g := range fs {
		if g != f {
			out = append(out, g)
		}
	}
	return out
}
