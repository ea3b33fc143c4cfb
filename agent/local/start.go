package local

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// start starts spec.Command under the sandbox settings: in a PID namespace
// of its own whose init dies with tandem, and under Landlock, when a helper
// is known (see agent/sandbox).
func start(settings sandbox.Settings, spec command.Spec, out, errOut io.Writer) (*sandbox.Cmd, error) {
	// The session's other roots are writable when the working directory is
	// (workspace-write mode), as roots: their protected entries stay
	// read-only like the working directory's.
	policy := sandbox.PolicyFor(settings, spec.Dir)
	if policy.Mode == sandbox.ModeWorkspaceWrite {
		policy.Roots = append(slices.Clone(policy.Roots), spec.Roots...)
	}
	cmd := sandbox.Command(policy, settings.Helper, spec.Command)
	cmd.Dir = spec.Dir
	cmd.Env = append(commandEnv(os.Environ(), settings.EnvAllow), spec.Env...)
	if spec.OnData != nil {
		out = io.MultiWriter(out, dataFunc(spec.OnData))
	}
	cmd.Stdout = out
	cmd.Stderr = out // the same writer: exec shares one pipe, keeping order
	if spec.SplitStderr {
		cmd.Stderr = errOut
	}
	if spec.Stdin != "" {
		cmd.Stdin = strings.NewReader(spec.Stdin)
	}
	cmd.WaitDelay = pipeGrace
	return cmd, cmd.Start()
}

// dataFunc is a writer that hands each piece to a function.
type dataFunc func([]byte)

func (f dataFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}

// commandEnv is the command's environment: no provider keys, no
// secret-looking variables the user did not allow, and not the sandbox
// settings themselves.
func commandEnv(environ, allow []string) []string {
	env := config.CommandEnv(environ, allow)
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, sandbox.SettingsEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}
