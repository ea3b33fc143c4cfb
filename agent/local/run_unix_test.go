//go:build !windows

// The sh scripts here have cmd counterparts in run_windows_test.go.

package local

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret")
	t.Setenv("TANDEM_VISIBLE", "yes")
	cases := []struct {
		name    string
		command string
		exit    int
		signal  string
		output  string
	}{
		{name: "success", command: "echo hi", exit: 0, output: "hi\n"},
		{name: "exit code", command: "echo failing >&2; exit 3", exit: 3, output: "failing\n"},
		{name: "stdout and stderr in order", command: "echo a; echo b >&2; echo c", output: "a\nb\nc\n"},
		{name: "runs in dir", command: "pwd", output: dir + "\n"},
		{name: "no stdin", command: "cat; echo done", output: "done\n"},
		{name: "killed by a signal", command: "echo before; kill -9 $$", exit: -1, signal: "killed", output: "before\n"},
		{name: "API keys hidden, the rest inherited", command: `echo "${ANTHROPIC_API_KEY:-unset} $TANDEM_VISIBLE"`, output: "unset yes\n"},
		{name: "command not found", command: "definitely-not-a-command-xyz", exit: 127},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), command.Spec{Command: c.command, Dir: dir, Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != c.exit || res.Signal != c.signal || res.TimedOut {
				t.Errorf("exit %d signal %q timedOut %v; want exit %d signal %q", res.ExitCode, res.Signal, res.TimedOut, c.exit, c.signal)
			}
			if c.output != "" && res.Output != c.output {
				t.Errorf("output %q, want %q", res.Output, c.output)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), command.Spec{Command: "echo started; sleep 30", Dir: t.TempDir(), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode != -1 || res.Output != "started\n" {
		t.Fatalf("got %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v to time out", d)
	}
}

func TestRunOutputCap(t *testing.T) {
	const limit = 1000
	res, err := Run(context.Background(), command.Spec{Command: "seq 1 100000", Dir: t.TempDir(), OutputLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || !strings.HasPrefix(res.Output, "1\n2\n3\n") || !strings.HasSuffix(res.Output, "99999\n100000\n") {
		t.Fatalf("head/tail not kept: truncated=%v %.60q ... %q", res.Truncated, res.Output, res.Output[len(res.Output)-20:])
	}
	// seq 1 100000 prints 588895 bytes.
	if !strings.Contains(res.Output, "[... 587895 bytes of output omitted ...]") {
		t.Errorf("no accurate marker in %q", res.Output)
	}
	if len(res.Output) > limit+100 {
		t.Errorf("kept %d bytes for a limit of %d", len(res.Output), limit)
	}
}

func TestRunStreamsOutput(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	spec := command.Spec{Command: "echo first; sleep 1; echo second", Dir: t.TempDir(), OnOutput: func(s string) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
	}}
	if _, err := Run(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0] != "first\n" {
		t.Fatalf("progress %q: want the first line while the command still ran", seen)
	}
}
