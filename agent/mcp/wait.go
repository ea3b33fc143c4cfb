package mcp

import (
	"context"
	"slices"
	"strings"
	"time"
)

// DefaultStartupWait bounds how long a session's first request waits for
// servers still starting (config.json "mcpStartupSeconds").
const DefaultStartupWait = 10 * time.Second

// markSettled records that the server's connection attempt is over, one
// way or the other; its tools (or its failure notice) are queued by then.
func (s *server) markSettled() {
	s.settleOnce.Do(func() { close(s.settled) })
}

// Starting lists the servers still connecting, in configuration order.
func (m *Manager) Starting() []string {
	var out []string
	for _, s := range m.list() {
		if s.status().State == string(stateConnecting) {
			out = append(out, s.cfg.Name)
		}
	}
	return out
}

// Await waits until each named server that is connecting now has
// connected or failed, for at most d, calling settled with each one's status as it
// finishes (from Await's goroutine, in the order they finish). It returns
// the names of those still connecting when d passed or ctx ended; they go
// on in the background. Before it returns, every tool change and notice
// of the servers that settled has been delivered, so the catalog a caller
// reads next has their tools.
func (m *Manager) Await(ctx context.Context, names []string, d time.Duration, settled func(Status)) (late []string) {
	var waiting []*server
	for _, s := range m.list() {
		if slices.Contains(names, s.cfg.Name) && s.status().State == string(stateConnecting) {
			waiting = append(waiting, s)
		}
	}
	if len(waiting) == 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	// One watcher per server; the buffer lets each finish without a reader.
	done := make(chan *server, len(waiting))
	stop := make(chan struct{})
	defer close(stop)
	for _, s := range waiting {
		go func() {
			select {
			case <-s.settled:
				done <- s
			case <-stop:
			}
		}()
	}
wait:
	for len(waiting) > 0 {
		select {
		case s := <-done:
			m.events.flush(ctx)
			if settled != nil {
				settled(s.status())
			}
			waiting = slices.DeleteFunc(waiting, func(w *server) bool { return w == s })
		case <-timer.C:
			break wait
		case <-ctx.Done():
			break wait
		case <-m.ctx.Done():
			break wait
		}
	}
	for _, s := range waiting {
		late = append(late, s.cfg.Name)
	}
	return late
}

// ServerInstructions is what one server's initialize result told its
// client about using it.
type ServerInstructions struct {
	Server string
	Text   string
}

// Instructions returns the instructions of the servers that are ready,
// sorted by server name so the text built from them is the same whatever
// order the servers connected in.
func (m *Manager) Instructions() []ServerInstructions {
	var out []ServerInstructions
	for _, s := range m.list() {
		cs, _ := s.currentSession()
		if cs == nil {
			continue
		}
		res := cs.InitializeResult()
		if res == nil || strings.TrimSpace(res.Instructions) == "" {
			continue
		}
		text := res.Instructions
		if len(text) > maxDescription {
			text, _ = cutRunes(text, maxDescription)
		}
		out = append(out, ServerInstructions{Server: s.cfg.Name, Text: text})
	}
	slices.SortFunc(out, func(a, b ServerInstructions) int { return strings.Compare(a.Server, b.Server) })
	return out
}
