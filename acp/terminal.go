package acp

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
)

// cleanupTimeout bounds the kill/output/release calls made after a command
// was cancelled or timed out, when the turn's context is already gone.
const cleanupTimeout = 5 * time.Second

// RunCommand runs the command in an editor terminal when the client offers
// terminals (terminal/create, wait_for_exit, output, release; kill on
// cancel or timeout), and on this machine otherwise. The editor shows its
// terminal inside the tool call through spec.OnTerminal.
func (h *host) RunCommand(ctx context.Context, spec agent.CommandSpec) (agent.CommandResult, error) {
	if !h.caps.Terminal {
		return h.local.RunCommand(ctx, spec)
	}
	if err := h.beforeRequest(ctx); err != nil {
		return agent.CommandResult{ExitCode: -1}, err
	}
	sid := h.sessionID()
	req := sdk.CreateTerminalRequest{SessionId: sid, Command: "sh", Args: []string{"-c", spec.Command}}
	if spec.Dir != "" {
		req.Cwd = &spec.Dir
	}
	if spec.OutputLimit > 0 {
		req.OutputByteLimit = &spec.OutputLimit
	}
	created, err := call[sdk.CreateTerminalResponse](ctx, h.srv.conn, sdk.ClientMethodTerminalCreate, req)
	if err != nil {
		return agent.CommandResult{ExitCode: -1}, fmt.Errorf("terminal/create: %w", err)
	}
	t := terminal{h: h, sid: sid, id: created.TerminalId}
	// The terminal outlives this call only until release; release runs on
	// every path, with its own deadline when ctx is gone.
	defer t.release()
	if spec.OnTerminal != nil {
		spec.OnTerminal(t.id)
	}

	waitCtx, cancel := ctx, context.CancelFunc(func() {})
	if spec.Timeout > 0 {
		waitCtx, cancel = context.WithTimeout(ctx, spec.Timeout)
	}
	defer cancel()
	exit, werr := call[sdk.WaitForTerminalExitResponse](waitCtx, h.srv.conn, sdk.ClientMethodTerminalWaitForExit,
		sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: t.id})
	var res agent.CommandResult
	switch {
	case werr == nil:
		res = t.output(ctx)
		res.ExitCode, res.Signal = -1, ""
		if exit.ExitCode != nil {
			res.ExitCode = *exit.ExitCode
		}
		if exit.Signal != nil {
			res.Signal = *exit.Signal
		}
		return res, nil
	case ctx.Err() != nil:
		t.kill()
		res = t.output(context.Background())
		res.ExitCode = -1
		return res, ctx.Err()
	case errors.Is(waitCtx.Err(), context.DeadlineExceeded):
		t.kill()
		res = t.output(context.Background())
		res.ExitCode, res.TimedOut = -1, true
		return res, nil
	default:
		t.kill()
		return agent.CommandResult{ExitCode: -1}, fmt.Errorf("terminal/wait_for_exit: %w", werr)
	}
}

// terminal is one editor terminal a command runs in.
type terminal struct {
	h   *host
	sid sdk.SessionId
	id  string
}

// output fetches what the terminal printed.
func (t terminal) output(ctx context.Context) agent.CommandResult {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	out, err := call[sdk.TerminalOutputResponse](ctx, t.h.srv.conn, sdk.ClientMethodTerminalOutput, sdk.TerminalOutputRequest{SessionId: t.sid, TerminalId: t.id})
	if err != nil {
		t.h.srv.log.Warn("acp: terminal/output", "terminal", t.id, "err", err)
		return agent.CommandResult{ExitCode: -1}
	}
	return agent.CommandResult{Output: out.Output, Truncated: out.Truncated}
}

func (t terminal) kill() {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	if err := t.h.srv.conn.Call(ctx, sdk.ClientMethodTerminalKill, sdk.KillTerminalRequest{SessionId: t.sid, TerminalId: t.id}, nil); err != nil {
		t.h.srv.log.Warn("acp: terminal/kill", "terminal", t.id, "err", err)
	}
}

func (t terminal) release() {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	if err := t.h.srv.conn.Call(ctx, sdk.ClientMethodTerminalRelease, sdk.ReleaseTerminalRequest{SessionId: t.sid, TerminalId: t.id}, nil); err != nil {
		t.h.srv.log.Warn("acp: terminal/release", "terminal", t.id, "err", err)
	}
}
