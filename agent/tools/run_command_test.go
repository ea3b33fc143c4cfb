package tools

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestRunCommandTool(t *testing.T) {
	cases := []struct {
		name     string
		args     map[string]any
		isError  bool
		contains []string
	}{
		{name: "exit 0", args: map[string]any{"command": "echo hello"}, contains: []string{"Exit code: 0\nhello\n"}},
		{name: "runs in the root", args: map[string]any{"command": "cat marker.txt"}, contains: []string{"in the root"}},
		{name: "non-zero exit", args: map[string]any{"command": "echo boom >&2; exit 2"}, isError: true,
			contains: []string{"Exit code: 2\nboom\n"}},
		{name: "timeout", args: map[string]any{"command": "echo waiting; sleep 20", "timeout_seconds": 1}, isError: true,
			contains: []string{"timed out after 1s", "waiting"}},
		{name: "no output", args: map[string]any{"command": "true"}, contains: []string{"(no output)"}},
		{name: "output capped head and tail", args: map[string]any{"command": "seq 1 20000"},
			contains: []string{"middle was cut", "1\n2\n3\n", "bytes of output omitted", "19999\n20000\n"}},
		{name: "empty command", args: map[string]any{"command": "  "}, isError: true, contains: []string{"empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]string{"marker.txt": "in the root\n"})
			res := f.run(t, NewRunCommand(), c.args)
			if res.IsError != c.isError {
				t.Fatalf("IsError = %v, want %v:\n%.500s", res.IsError, c.isError, res.Output)
			}
			for _, s := range c.contains {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%.500s", s, res.Output)
				}
			}
			if len(res.Output) > commandOutputLimit+500 {
				t.Errorf("output is %d bytes", len(res.Output))
			}
			if strings.TrimSpace(c.args["command"].(string)) == "" {
				return
			}
			if f.asker.count() != 1 || f.asker.asks[0].Command != c.args["command"] || f.asker.asks[0].Kind != KindExecute {
				t.Errorf("asks %+v", f.asker.asks)
			}
		})
	}
}

func TestRunCommandRejected(t *testing.T) {
	f := newFixture(t, nil)
	f.asker.answer = ErrRejected
	res := f.run(t, NewRunCommand(), map[string]any{"command": "touch ran"})
	if !res.IsError || !strings.Contains(res.Output, "The user rejected running `touch ran`") {
		t.Fatalf("got %+v", res)
	}
	if _, err := os.Stat(f.abs("ran")); err == nil {
		t.Fatal("the rejected command ran")
	}
}

// A host running commands in an editor terminal reports the terminal id;
// the progress stream and the result carry it.
func TestRunCommandTerminalAndProgress(t *testing.T) {
	f := newFixture(t, nil)
	var gotSpec CommandSpec
	f.host.runCommand = func(ctx context.Context, spec CommandSpec) (CommandResult, error) {
		gotSpec = spec
		spec.OnTerminal("term-7")
		spec.OnOutput("partial")
		return CommandResult{Output: "all done\n"}, nil
	}
	var mu sync.Mutex
	var progress []Progress
	f.env.Progress = func(p Progress) {
		mu.Lock()
		progress = append(progress, p)
		mu.Unlock()
	}
	res := f.run(t, NewRunCommand(), map[string]any{"command": "make test", "timeout_seconds": 9999})
	if res.TerminalID != "term-7" || res.IsError || !strings.Contains(res.Output, "all done") {
		t.Fatalf("result %+v", res)
	}
	if gotSpec.Dir != f.root || gotSpec.Timeout != commandMaxTimeout || gotSpec.OutputLimit != commandOutputLimit || gotSpec.Command != "make test" {
		t.Errorf("spec %+v", gotSpec)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 2 || progress[0].TerminalID != "term-7" || progress[1].Output != "partial" || progress[1].TerminalID != "term-7" {
		t.Errorf("progress %+v", progress)
	}
}

// Cancelling the call's context ends it with the context's error.
func TestRunCommandCancel(t *testing.T) {
	f := newFixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	f.env.Progress = func(p Progress) {
		if strings.Contains(p.Output, "started") {
			cancel()
		}
	}
	_, err := NewRunCommand().Run(ctx, f.env, mustJSON(t, map[string]any{"command": "echo started; sleep 30"}))
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
