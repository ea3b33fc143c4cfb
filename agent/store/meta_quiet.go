package store

import (
	"reflect"
	"sync"
	"time"
)

// metaQuiet is how long after writing the sidecar a Log leaves a newer one
// that differs only in its Updated time unwritten. A session rewrites the
// sidecar at the end of every turn, by a new file renamed over the old
// one: at a person's pace that is one file every few seconds, but an
// agent answering turn after turn without pause made hundreds a second,
// and on ext4 each new file then costs a scan past every inode deleted in
// the last minutes (the allocator skips recently deleted ones), a cost
// that grew with the session (bench/editor.sh turns: +1 ms a turn by turn
// 1,500). Within metaQuiet the newest such sidecar waits; the next one
// that changes anything else, or Close, writes it. A crash in between
// leaves an Updated time at most metaQuiet old.
const metaQuiet = 2 * time.Second

// quietMeta is what a Log remembers of its sidecar writes.
type quietMeta struct {
	mu      sync.Mutex
	written *Meta     // the sidecar last written; nil before the first
	at      time.Time // when
	pending *Meta     // a newer one left unwritten (metaQuiet)
}

// hold reports whether m may wait: it differs from the sidecar last
// written only in Updated, and that was written within metaQuiet. It
// then keeps m as pending. The caller holds q.mu.
func (q *quietMeta) hold(m Meta, now time.Time) bool {
	if q.written == nil || now.Sub(q.at) >= metaQuiet {
		return false
	}
	a, b := *q.written, m
	a.Updated, b.Updated = time.Time{}, time.Time{}
	if !reflect.DeepEqual(a, b) {
		return false
	}
	q.pending = &m
	return true
}

// wrote notes that m is the sidecar on disk now. The caller holds q.mu.
func (q *quietMeta) wrote(m Meta, now time.Time) {
	q.written, q.at, q.pending = &m, now, nil
}

// flushMeta writes the sidecar left pending, if any.
func (l *Log) flushMeta() error {
	l.quiet.mu.Lock()
	defer l.quiet.mu.Unlock()
	if l.quiet.pending == nil {
		return nil
	}
	m := *l.quiet.pending
	if err := l.writeMeta(m); err != nil {
		return err
	}
	l.quiet.wrote(m, time.Now())
	return nil
}
