package plugin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// current returns the process when the instance is up and implements
// hook ("" for any call).
func (i *instance) current(hook string) *process {
	i.mu.Lock()
	defer i.mu.Unlock()
	if !i.up || (hook != "" && !i.hooks[hook]) {
		return nil
	}
	return i.proc
}

// call makes one request to the plugin under budget (0: only ctx). Over
// budget, the call is skipped and logged; too many in a row, or a dead
// connection, is a fault. The error says what happened, for the log.
func (i *instance) call(ctx context.Context, p *process, method string, budget time.Duration, params, result any) error {
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	err := p.conn.Call(ctx, method, params, result)
	if err == nil && p.bad.Load() {
		// Nothing a process says after breaking the protocol is trusted.
		return errGarbage
	}
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		i.mu.Lock()
		i.overruns = 0
		i.mu.Unlock()
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		i.log.Warn("over its budget; skipped", "method", method, "budget", budget, "session", i.sess.id)
		i.overrun(p)
	case ctx.Err() != nil:
	case errors.As(err, &rpcErr):
		i.log.Warn("answered with an error; skipped", "method", method, "err", err)
	case errors.Is(err, jsonrpc.ErrClosed):
		i.fault(p, "its connection closed")
	default:
		i.log.Warn("unusable answer; skipped", "method", method, "err", err)
	}
	return err
}

// notify sends an observing hook without waiting for the plugin (but not
// longer than its budget for room in the outbox).
func (i *instance) notify(ctx context.Context, hook string, params any) {
	p := i.current(hook)
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), i.budget())
	defer cancel()
	err := p.conn.Notify(ctx, sdk.HookPrefix+hook, params)
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		// The plugin is not reading its input: as slow as a late answer.
		i.log.Warn("hook not delivered: the plugin is not reading", "hook", hook)
		i.overrun(p)
	default:
		i.log.Warn("hook not delivered", "hook", hook, "err", err)
	}
}

// overrun counts a call over budget; too many in a row is a hung plugin.
func (i *instance) overrun(p *process) {
	i.mu.Lock()
	i.overruns++
	hung := i.overruns >= hangAfter
	i.mu.Unlock()
	if hung {
		i.fault(p, fmt.Sprintf("%d calls in a row ran over budget", hangAfter))
	}
}
