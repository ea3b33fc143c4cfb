package testenv

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// Watch is a SyncBuffer for a process's stderr that counts the times it
// says what, so a test can wait for the next one (a debug log line marking
// a step the wire does not show) instead of polling.
type Watch struct {
	SyncBuffer
	what string
	mu   sync.Mutex
	seen int
	hits chan struct{}
}

// NewWatch watches for what.
func NewWatch(what string) *Watch {
	return &Watch{what: what, hits: make(chan struct{}, 1024)}
}

func (w *Watch) Write(p []byte) (int, error) {
	n, err := w.SyncBuffer.Write(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := strings.Count(w.String(), w.what); w.seen < c; w.seen++ {
		w.hits <- struct{}{}
	}
	return n, err
}

// Next waits for the next time the process says what; after d it reports
// the failure (it may run on any goroutine) and returns false.
func (w *Watch) Next(t testing.TB, d time.Duration) bool {
	t.Helper()
	select {
	case <-w.hits:
		return true
	case <-time.After(d):
		t.Errorf("the process never said %q; stderr:\n%s", w.what, w.String())
		return false
	}
}
