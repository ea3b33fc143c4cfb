package main

import (
	"context"
	"os"
	"os/signal"
)

// notifyContext is signal.NotifyContext with the handler installed by a
// goroutine of its own instead of on the way to the first answer: the first
// Notify of a process starts the runtime's signal loop, which takes a thread
// of its own (100–300 µs of an editor's wait when done in line). Until that
// goroutine has run, a signal has its default effect and ends the process,
// which then has nothing to save yet. The first signal cancels the context
// and gives the signals their default handling back, so a second one ends
// the process at once. cancel (or parent's end) releases the goroutine.
func notifyContext(parent context.Context, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, sigs...)
		defer signal.Stop(ch)
		select {
		case <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}
