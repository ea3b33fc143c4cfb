package local

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
)

// runUntilEnd runs spec with Run in the background and, once the command
// has printed ready (the sign that what it started is running, seen as
// its output arrives), cancels it if asked; it checks that Run returns
// within the given time with context.Canceled exactly when cancelled and
// TimedOut when spec has a timeout. onReady runs first, so the caller can
// read what the command left.
func runUntilEnd(t *testing.T, spec command.Spec, ready string, onReady func(), cancelIt bool, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu      sync.Mutex // guards out; OnData runs on Run's copying goroutine
		out     []byte
		once    sync.Once
		printed = make(chan struct{})
	)
	spec.OnData = func(p []byte) {
		mu.Lock()
		out = append(out, p...)
		seen := bytes.Contains(out, []byte(ready))
		mu.Unlock()
		if seen {
			once.Do(func() { close(printed) })
		}
	}
	type outcome struct {
		res command.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Run(ctx, spec)
		done <- outcome{res, err}
	}()
	select {
	case <-printed:
	case <-time.After(10 * time.Second):
		t.Fatal("the command never got ready")
	}
	if onReady != nil {
		onReady()
	}
	if cancelIt {
		cancel()
	}
	var o outcome
	select {
	case o = <-done:
	case <-time.After(within):
		t.Fatal("Run did not return")
	}
	if cancelIt != errors.Is(o.err, context.Canceled) || (!cancelIt && o.err != nil) {
		t.Errorf("err = %v, cancelled %v", o.err, cancelIt)
	}
	if spec.Timeout > 0 && !o.res.TimedOut {
		t.Errorf("TimedOut not set: %+v", o.res)
	}
}
