package plugin

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// stateWatch polls plugins.json while sessions are open, so that
// `tandem plugin enable|disable` in another process reaches live sessions
// without waiting for their next turn.
type stateWatch struct {
	r *Runtime
	// checkMu makes a check wait for one under way: a turn starting while
	// the poller applies a change must see it applied.
	checkMu sync.Mutex
	// mu guards stopCh, done and stamp.
	mu     sync.Mutex
	stopCh chan struct{}
	done   chan struct{}
	stamp  string
}

func (w *stateWatch) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopCh != nil {
		return
	}
	w.stamp = stateStamp(w.r.o.Home)
	w.stopCh, w.done = make(chan struct{}), make(chan struct{})
	go w.loop(w.stopCh, w.done)
}

func (w *stateWatch) stop() {
	w.mu.Lock()
	stop, done := w.stopCh, w.done
	w.stopCh, w.done = nil, nil
	w.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

func (w *stateWatch) loop(stop, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(w.r.o.Poll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			w.check()
		}
	}
}

// check reconciles every session when plugins.json changed since the
// last look: its plugin processes, and its modes, agents and rules.
func (w *stateWatch) check() {
	w.checkMu.Lock()
	defer w.checkMu.Unlock()
	now := stateStamp(w.r.o.Home)
	w.mu.Lock()
	changed := now != w.stamp
	w.stamp = now
	w.mu.Unlock()
	if !changed {
		return
	}
	for _, ss := range w.r.all() {
		ss.reconcile(false)
		ss.s.RefreshDefinitions()
	}
}

// stateStamp identifies a version of plugins.json (size and mtime).
func stateStamp(home string) string {
	st, err := os.Stat(StateFile(home))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", st.ModTime().UnixNano(), st.Size())
}
