package lsp

import (
	"context"
	"encoding/json"
	"fmt"
)

// progress is one prompt's work-done progress in the client's status line.
// A nil *progress does nothing, so callers need not check support.
type progress struct {
	srv   *Server
	token string
}

// The $/progress values. protocol v0.12.0's types drop a 0 percentage
// with omitempty; ours simply never send one.
type progressBegin struct {
	Kind        string `json:"kind"`
	Title       string `json:"title"`
	Cancellable bool   `json:"cancellable"`
	Message     string `json:"message,omitempty"`
}

type progressReport struct {
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
}

type progressParams struct {
	Token string `json:"token"`
	Value any    `json:"value"`
}

// beginProgress asks the client for a progress token and opens it. It
// returns nil when the client has no work-done progress or refuses.
func (s *Server) beginProgress(ctx context.Context, title, message string) *progress {
	if !s.clientCaps().Window.WorkDoneProgress {
		return nil
	}
	s.stateMu.Lock()
	s.progress++
	token := fmt.Sprintf("tandem-%d", s.progress)
	s.stateMu.Unlock()
	if err := s.conn.call(ctx, "window/workDoneProgress/create", map[string]string{"token": token}, nil); err != nil {
		s.log.Info("client refused a progress token", "err", err)
		return nil
	}
	p := &progress{srv: s, token: token}
	p.send(progressBegin{Kind: "begin", Title: title, Cancellable: true, Message: message})
	return p
}

func (p *progress) report(message string) {
	if p == nil {
		return
	}
	p.send(progressReport{Kind: "report", Message: message})
}

func (p *progress) end(message string) {
	if p == nil {
		return
	}
	p.send(progressReport{Kind: "end", Message: message})
}

func (p *progress) send(v any) {
	if err := p.srv.conn.notify("$/progress", progressParams{Token: p.token, Value: v}); err != nil {
		p.srv.log.Warn("cannot send $/progress", "err", err)
	}
}

// progressCancel serves window/workDoneProgress/cancel: the user pressed
// cancel on a prompt's progress, which ends that prompt as $/cancelRequest
// on it would.
func (s *Server) progressCancel(_ context.Context, params json.RawMessage) error {
	var p struct {
		Token json.RawMessage `json:"token"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	var token string
	if err := json.Unmarshal(p.Token, &token); err != nil {
		return nil // numeric tokens are never ours
	}
	for _, ss := range s.allSessions() {
		ss.cancelProgress(token)
	}
	return nil
}
