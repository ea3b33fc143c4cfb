package agent

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// queuedMessage is what the actor logs as it queues a prompt behind the
// running turn (Session.accept). Queuing is otherwise silent (the editor
// hears of a prompt when it is answered), so this record is the event a
// test waits on.
const queuedMessage = "prompt queued behind the running turn"

// queueLog is the fixture's log handler: it counts, per session, the
// prompts the actor queued, and drops every other record.
type queueLog struct {
	mu      sync.Mutex     // guards n
	n       map[string]int // session id → prompts queued so far
	changes testenv.Changes
}

func (q *queueLog) Enabled(context.Context, slog.Level) bool { return true }
func (q *queueLog) WithAttrs([]slog.Attr) slog.Handler       { return q }
func (q *queueLog) WithGroup(string) slog.Handler            { return q }

func (q *queueLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != queuedMessage {
		return nil
	}
	var id string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "session" {
			id = a.Value.String()
			return false
		}
		return true
	})
	q.mu.Lock()
	if q.n == nil {
		q.n = map[string]int{}
	}
	q.n[id]++
	q.mu.Unlock()
	q.changes.Changed()
	return nil
}

func (q *queueLog) count(id string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n[id]
}

// awaitQueued waits until n prompts in all have been queued behind s's
// running turn, then checks that all n still wait there (10 s bounds a
// failure; each queuing wakes the wait).
func (f *fixture) awaitQueued(t *testing.T, s *Session, n int) {
	t.Helper()
	if !f.queueLog.changes.Wait(10*time.Second, func() bool { return f.queueLog.count(s.ID()) >= n }) {
		t.Fatalf("%d prompts queued in 10s, want %d", f.queueLog.count(s.ID()), n)
	}
	if got := queued(s); got != n {
		t.Fatalf("%d prompts wait in the queue, want %d", got, n)
	}
}
