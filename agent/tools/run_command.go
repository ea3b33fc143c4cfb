package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/internal/shell"
)

// RunCommandName is the model-facing name of the shell tool.
const RunCommandName = "run_command"

const (
	commandDefaultTimeout = 120 * time.Second
	commandMaxTimeout     = 600 * time.Second
	commandOutputLimit    = 30_000
)

//go:embed run_command.md
var runCommandDoc string

// runCommandDescription names the shell this build runs commands in (sh,
// or PowerShell on Windows): fixed per build, so the tool list stays
// byte-stable on one machine.
var runCommandDescription = strings.Replace(runCommandDoc, "{shell}", shell.Described, 1)

type runCommandArgs struct {
	Command        string `json:"command" jsonschema:"Shell command line, run in the workspace root."`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"Kill the command after this many seconds. Default 120, at most 600."`
	Unsandboxed    bool   `json:"unsandboxed,omitempty" jsonschema:"Run outside the sandbox. Only for a command whose earlier result said the sandbox blocked it and that needs what was blocked; the user is asked every time."`
}

// NewRunCommand returns the run_command tool.
func NewRunCommand() Tool {
	return New(Spec[runCommandArgs]{Name: RunCommandName, Group: GroupExecute, Kind: KindExecute,
		Doc: runCommandDescription, Run: runRunCommand, Describe: describeRunCommand})
}

func describeRunCommand(_ string, p runCommandArgs) Preview {
	cmd := p.Command
	if first, _, multi := strings.Cut(cmd, "\n"); multi {
		cmd = first + " …"
	}
	if cut, ok := truncateRunes(cmd, 120); ok {
		cmd = cut + "…"
	}
	return Preview{Title: "Run `" + cmd + "`"}
}

func runRunCommand(ctx context.Context, env *Env, p runCommandArgs) (Result, error) {
	if strings.TrimSpace(p.Command) == "" {
		return failure("command is empty"), nil
	}
	if p.TimeoutSeconds < 0 {
		return failure("timeout_seconds must be positive"), nil
	}
	timeout := commandDefaultTimeout
	if p.TimeoutSeconds > 0 {
		timeout = min(time.Duration(p.TimeoutSeconds)*time.Second, commandMaxTimeout)
	}
	if p.Unsandboxed && env.Ask == nil {
		return failure("running a command outside the sandbox needs the user's approval, and nothing here can ask for it"), nil
	}
	if env.Ask != nil {
		title := describeRunCommand(env.Root, p).Title
		if p.Unsandboxed {
			title += " outside the sandbox"
		}
		err := env.Ask(ctx, Ask{Title: title, Kind: KindExecute, Command: p.Command, Unsandboxed: p.Unsandboxed})
		if errors.Is(err, ErrRejected) {
			return rejectedByUser("running `"+p.Command+"`", err), nil
		}
		if err != nil {
			return Result{}, err
		}
	}

	var termMu sync.Mutex // guards terminalID: the host may report it from its own goroutine
	var terminalID string
	spec := CommandSpec{
		Command:     p.Command,
		Dir:         env.Root,
		Roots:       env.Roots,
		Timeout:     timeout,
		OutputLimit: commandOutputLimit,
		Unsandboxed: p.Unsandboxed,
		OnTerminal: func(id string) {
			termMu.Lock()
			terminalID = id
			termMu.Unlock()
			if env.Progress != nil {
				env.Progress(Progress{TerminalID: id})
			}
		},
	}
	if env.Progress != nil {
		spec.OnOutput = func(output string) {
			termMu.Lock()
			id := terminalID
			termMu.Unlock()
			env.Progress(Progress{Output: output, TerminalID: id})
		}
	}
	cr, err := env.Host.RunCommand(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	termMu.Lock()
	defer termMu.Unlock()
	return Result{
		Output:     formatCommandResult(cr, timeout),
		IsError:    cr.ExitCode != 0,
		TerminalID: terminalID,
	}, nil
}

// formatCommandResult puts how the command ended first, then its output.
func formatCommandResult(cr CommandResult, timeout time.Duration) string {
	var b strings.Builder
	switch {
	case cr.TimedOut:
		fmt.Fprintf(&b, "The command timed out after %s and was killed with its child processes.", timeout)
	case cr.Signal != "":
		fmt.Fprintf(&b, "The command was killed by signal %s.", cr.Signal)
	default:
		fmt.Fprintf(&b, "Exit code: %d", cr.ExitCode)
	}
	if cr.Truncated {
		b.WriteString(" (output was too long; its middle was cut)")
	}
	b.WriteString("\n")
	if cr.Output == "" {
		b.WriteString("(no output)\n")
	} else {
		b.WriteString(strings.ToValidUTF8(cr.Output, "\uFFFD"))
		if !strings.HasSuffix(cr.Output, "\n") {
			b.WriteString("\n")
		}
	}
	if len(cr.Created) > 0 {
		fmt.Fprintf(&b, "\nNote: this command created %s: protected paths (hooks, instructions, tandem or editor settings) that did not exist when it started, "+
			"so the sandbox could not keep them read-only. Tell the user, who should review them.\n", strings.Join(cr.Created, ", "))
	}
	if cr.Blocked != "" {
		fmt.Fprintf(&b, "\n%s\nIf the task needs what was blocked, call run_command again with the same command and \"unsandboxed\": true; the user will be asked to approve running it outside the sandbox. Otherwise find a way that stays inside it.\n", cr.Blocked)
	}
	return b.String()
}
