package testenv

import (
	"sync"
	"testing"
)

// Stall lets a scripted client hold its answer to one request, so a test
// can cancel the call waiting on it. The zero value is ready to use.
type Stall struct {
	mu   sync.Mutex // guards next
	next *held
}

type held struct {
	arrived, release chan struct{}
	once             sync.Once
}

// Arm makes the next Wait hold. arrived is closed when a request reaches
// Wait; release lets it go on (and disarms Stall if no request came).
func (s *Stall) Arm(*testing.T) (arrived <-chan struct{}, release func()) {
	h := &held{arrived: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.next = h
	s.mu.Unlock()
	return h.arrived, func() {
		s.mu.Lock()
		if s.next == h {
			s.next = nil
		}
		s.mu.Unlock()
		h.once.Do(func() { close(h.release) })
	}
}

// Wait holds the calling handler while Stall is armed, until released.
func (s *Stall) Wait() {
	s.mu.Lock()
	h := s.next
	s.next = nil
	s.mu.Unlock()
	if h != nil {
		close(h.arrived)
		<-h.release
	}
}
