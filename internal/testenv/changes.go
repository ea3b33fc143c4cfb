package testenv

import (
	"sync"
	"time"
)

// Changes lets a test wait for a condition on state other goroutines
// change (what a scripted editor recorded, the lines a process wrote):
// whoever changes the state calls Changed, and Wait checks the condition
// again at each change instead of polling on a timer. The zero value is
// ready to use.
type Changes struct {
	mu   sync.Mutex // guards wake
	wake chan struct{}
}

// Changed wakes every Wait to check its condition again.
func (c *Changes) Changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wake != nil {
		close(c.wake)
		c.wake = nil
	}
}

func (c *Changes) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wake == nil {
		c.wake = make(chan struct{})
	}
	return c.wake
}

// Wait returns true once cond holds, checking it now and after each
// Changed; cond takes whatever locks its state needs. It returns false if
// cond still fails d later: d only bounds a failure, which the caller
// reports.
func (c *Changes) Wait(d time.Duration, cond func() bool) bool {
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	for {
		wake := c.next() // before cond: a change during cond still wakes us
		if cond() {
			return true
		}
		select {
		case <-wake:
		case <-timeout.C:
			return cond()
		}
	}
}
