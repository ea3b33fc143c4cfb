package local

import (
	"context"
	"errors"
	"os/exec"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/proc"
)

const (
	// killGrace is how long a command may take to exit after SIGTERM
	// before its whole process group gets SIGKILL.
	killGrace = 2 * time.Second
	// pipeGrace is how long output is still collected after the shell
	// exits, for background children that keep the pipe open.
	pipeGrace = 500 * time.Millisecond
	// progressEvery throttles OnOutput so a chatty command does not flood
	// the editor.
	progressEvery = 200 * time.Millisecond
)

// Run runs spec.Command with the Runner cmd/tandem described in the
// environment (sandbox.SettingsEnv); see Runner.Run.
func Run(ctx context.Context, spec command.Spec) (command.Result, error) {
	return Runner{Sandbox: settingsFromEnv()}.Run(ctx, spec)
}

// Runner runs commands on this machine.
type Runner struct {
	// Sandbox says how commands are confined; the zero value (no helper)
	// runs them in a plain process group.
	Sandbox sandbox.Settings
}

// Run runs spec.Command in the platform's shell (internal/shell) on this
// machine, in spec.Dir, as a process tree of its own (internal/proc). stdout and stderr are combined in the order
// they were written, streamed to spec.OnOutput and capped to
// spec.OutputLimit (head and tail kept). When the timeout passes or ctx
// ends, the whole tree is asked to end (SIGTERM) and, after a short grace,
// killed; processes the command left running in its tree are killed when
// it exits too, so nothing outlives the call. On cancellation the partial
// result comes back together with ctx's error.
func (r Runner) Run(ctx context.Context, spec command.Spec) (command.Result, error) {
	if err := ctx.Err(); err != nil {
		return command.Result{ExitCode: -1}, err
	}
	settings := r.Sandbox
	if spec.Unsandboxed {
		settings.Mode = sandbox.ModeOff
	}
	out, errOut := newHeadTail(spec.OutputLimit), newHeadTail(spec.OutputLimit)
	confined, _ := settings.Confines()
	guarded := confined && (settings.Mode == "" || settings.Mode == sandbox.ModeWorkspaceWrite)
	var unguarded sandbox.Unguarded
	if guarded {
		unguarded = sandbox.Snapshot(append([]string{spec.Dir}, spec.Roots...))
	}
	cmd, err := start(settings, spec, out, errOut)
	if err != nil {
		return command.Result{ExitCode: -1}, err
	}
	tree := cmd.Tree()
	defer tree.Close()

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	var timeout <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var tick <-chan time.Time
	if spec.OnOutput != nil {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		tick = t.C
	}

	var res command.Result
	var waitErr, ctxErr error
	var shown int64
loop:
	for {
		select {
		case waitErr = <-waited:
			break loop
		case <-tick:
			if s, _, v := out.String(); v != shown {
				shown = v
				spec.OnOutput(s)
			}
		case <-timeout:
			res.TimedOut = true
			waitErr = stopTree(tree, waited)
			break loop
		case <-ctx.Done():
			ctxErr = ctx.Err()
			waitErr = stopTree(tree, waited)
			break loop
		}
	}
	// Background children the command left behind die with it.
	_ = tree.Kill()

	res.Output, res.Truncated, _ = out.String()
	res.Stderr, _, _ = errOut.String()
	res.ExitCode = -1
	if st := cmd.ProcessState; st != nil {
		if sig := cmd.Signal(); sig != "" {
			res.Signal = sig
		} else if sig := proc.ExitSignal(st); sig != "" {
			res.Signal = sig
		} else if !res.TimedOut {
			res.ExitCode = st.ExitCode()
		}
	}
	if confined {
		res.Blocked = blocked(settings, spec, res)
	}
	if guarded {
		res.Created = unguarded.Created()
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) && ctxErr == nil && !res.TimedOut {
		return res, waitErr
	}
	return res, ctxErr
}

// stopTree ends the process tree: Terminate so programs can clean up,
// Kill for whatever is left after the grace. It returns Wait's result.
func stopTree(tree *proc.Tree, waited <-chan error) error {
	_ = tree.Terminate()
	grace := time.NewTimer(killGrace)
	defer grace.Stop()
	select {
	case err := <-waited:
		return err
	case <-grace.C:
		_ = tree.Kill()
		return <-waited
	}
}
