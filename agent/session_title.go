package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/title"
)

// TitlesOff as Config.TitleModel turns model-written titles off: sessions
// keep their first prompt's line.
const TitlesOff = "off"

// ErrEmptyTitle is returned for a title with nothing in it.
var ErrEmptyTitle = errors.New("a title needs some text")

// titleState is the session's title and who wrote it. After the first
// exchange the session asks a model for a better title than the first
// prompt's line (askTitle), once per process and never over a title the
// user set.
type titleState struct {
	text string
	by   string // store.Meta.TitleBy
	// asked is set once a title request was started in this process; a
	// failed one is not retried until the session is opened again.
	asked bool
	// cancel stops the title request in flight (nil: none); Close calls it.
	cancel context.CancelFunc
}

// titleRequest is a title request the actor decided to send.
type titleRequest struct {
	ctx context.Context
	req *llm.Request
}

// wantTitle runs on the actor at a turn's end: it returns the title
// request to send when the session has had its first exchange, its title
// is still the first prompt's and none was asked for yet; else nil.
func (s *Session) wantTitle() *titleRequest {
	ts := &s.st.title
	model := s.a.cfg.TitleModel
	if ts.by != "" || ts.asked || s.st.closed || model == TitlesOff || s.a.Ready() != nil {
		return nil
	}
	prompt, reply := firstExchange(s.hist.msgs)
	if prompt == "" || reply == "" {
		return nil // a slash command, or a failed first request: wait for an exchange
	}
	if model == "" {
		model = s.st.model
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts.asked, ts.cancel = true, cancel
	return &titleRequest{ctx: ctx, req: title.Request(model, prompt, reply)}
}

// firstExchange is the text of the history's first prompt, without the
// instructions and repository map sent with it, and of the first reply.
func firstExchange(h []llm.Message) (prompt, reply string) {
	var p, r []string
	for _, m := range h {
		for _, part := range m.Content {
			if part.Type != llm.PartText || reinjected(part) {
				continue
			}
			switch {
			case m.Role == llm.RoleUser && len(r) == 0:
				p = append(p, part.Text)
			case m.Role == llm.RoleAssistant:
				r = append(r, part.Text)
			}
		}
		if len(r) > 0 {
			break
		}
	}
	return strings.TrimSpace(strings.Join(p, "\n")), strings.TrimSpace(strings.Join(r, "\n"))
}

// askTitle sends a title request and, when the model answers with a
// title and the user has not named the session meanwhile, makes it the
// session's title: stored and sent as session_info_update. It runs on a
// goroutine of its own, counted in s.turns so Close waits for it; Close
// cancels it. Any failure keeps the title the session has.
func (s *Session) askTitle(tr *titleRequest) {
	defer s.turns.Done()
	text, err := s.titleFromModel(tr)
	var meta *store.Meta
	cerr := s.change(func() {
		s.st.title.cancel = nil
		if err == nil && s.st.title.by == "" {
			s.st.title.text, s.st.title.by = text, store.TitleByModel
			meta = s.meta()
		}
	})
	switch {
	case err != nil:
		s.a.log.Info("no title from the model; the session keeps its title", "session", s.id, "err", s.a.cfg.Redact.Error(err))
	case cerr == nil && meta != nil:
		s.announceTitle(meta)
	}
}

// titleFromModel sends the request and reads the title from the answer.
func (s *Session) titleFromModel(tr *titleRequest) (string, error) {
	resp, err := s.a.cfg.Provider.Stream(tr.ctx, tr.req, func(llm.Event) {})
	if err != nil {
		return "", err
	}
	// Paid for: it counts toward the session's cost (not a turn's, which
	// it is no part of), and is logged so a reload counts it too.
	s.record(recUsage, usageRecord{V: usageRecordVersion, Model: tr.req.Model, Usage: resp.Usage})
	s.do(context.Background(), func() { s.st.usage.session.add(tr.req.Model, resp.Usage) })
	var text strings.Builder
	for _, p := range resp.Message.Content {
		if p.Type == llm.PartText {
			text.WriteString(p.Text)
		}
	}
	t, ok := title.FromReply(text.String())
	if !ok {
		return "", fmt.Errorf("the title request's answer has no text: %q", text.String())
	}
	return t, nil
}

// announceTitle stores the sidecar, then tells the editor the new title,
// so a session/list the editor sends on the update lists it. Live only,
// as the turn's own session_info_update: a replay is followed by
// session/list's title.
func (s *Session) announceTitle(meta *store.Meta) {
	s.saveMeta(meta)
	s.hist.reportSave(s.out.flush())
	s.emitLive(Update{Type: SessionInfoUpdated, Info: &SessionInfo{Title: meta.Title, UpdatedAt: meta.Updated}})
	s.out.drain()
}

// SetTitle names the session as the user chose: the title is kept with
// the session, sent as session_info_update, and never replaced by a
// model's; a title request in flight is cancelled.
func (s *Session) SetTitle(text string) error {
	t := title.Clean(text)
	if t == "" {
		return ErrEmptyTitle
	}
	var meta *store.Meta
	err := s.change(func() {
		ts := &s.st.title
		if ts.cancel != nil {
			ts.cancel()
		}
		ts.text, ts.by = t, store.TitleByUser
		meta = s.meta()
	})
	if err == nil {
		s.announceTitle(meta)
	}
	return err
}

// RenameSession gives session id the title a user chose: through the
// session when it is open in this process, in the store otherwise.
func (a *Agent) RenameSession(id, text string) error {
	if s := a.openSession(id); s != nil {
		return s.SetTitle(text)
	}
	if a.cfg.Store == nil {
		return fmt.Errorf("%w: sessions are not stored", ErrNoSession)
	}
	t := title.Clean(text)
	if t == "" {
		return ErrEmptyTitle
	}
	if _, err := a.cfg.Store.Rename(id, t); err != nil {
		return fmt.Errorf("%w: %v", ErrNoSession, err)
	}
	return nil
}
