package local

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
)

// waitFile waits until a command under test has made path, the sign
// that what it started is running.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the command never got ready")
}

// runUntilEnd runs spec with Run in the background and, once the command
// has made ready, cancels it if asked; it checks that Run returns within
// the given time with context.Canceled exactly when cancelled and
// TimedOut when spec has a timeout. ready is handed to onReady first, so
// the caller can read what the command wrote there.
func runUntilEnd(t *testing.T, spec command.Spec, ready string, onReady func(), cancelIt bool, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res command.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Run(ctx, spec)
		done <- outcome{res, err}
	}()
	waitFile(t, ready)
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
