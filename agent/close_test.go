package agent

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Agent.Close leaves nothing running: no session goroutine, no turn, no
// index builder, no MCP server process, no command.
func TestAgentCloseLeavesNothing(t *testing.T) {
	ev := everythingServer(t, "ev")
	home := t.TempDir()
	f := newFixture(t, func(c *Config) {
		c.Indexes = codeindex.NewPool(codeindex.Options{CacheDir: filepath.Join(home, "index")})
	})
	idle, _, _ := f.session(ModeCode, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	mcpHost := &testHost{}
	withMCP, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Host: mcpHost, MCPServers: []mcp.Server{ev}})
	if err != nil {
		t.Fatal(err)
	}
	awaitTool(t, mcpHost, withMCP, "mcp__ev__echo")
	if len(children()) == 0 {
		t.Fatal("the MCP server is not a child process: the check below would prove nothing")
	}
	// A finished turn has started the code index.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	if _, err := idle.Prompt(context.Background(), prompt("hi")); err != nil {
		t.Fatal(err)
	}
	// A turn still running a command.
	busy, _, dir := f.session(ModeFullAuto, nil)
	pids := testenv.FifoLines(t, filepath.Join(dir, "child.fifo"))
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command",
		Args: `{"command":"sleep 60 & echo $! > child.fifo; wait"}`}}})
	returned := make(chan StopReason, 1)
	go func() {
		r, _ := busy.Prompt(context.Background(), prompt("run"))
		returned <- r
	}()
	pid, err := strconv.Atoi(testenv.NextLine(t, pids, 10*time.Second, "the child's pid"))
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.agent.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case r := <-returned:
		if r != StopCancelled {
			t.Errorf("running turn ended with %q", r)
		}
	default:
		t.Error("Close returned before the running prompt did")
	}
	if alive(pid) {
		t.Errorf("command %d outlived Close", pid)
	}
	if c := children(); len(c) > 0 {
		t.Errorf("child processes outlived Close: %v", c)
	}
	// Close returns once everything it owns has stopped, so one check
	// after it is final (as goleak's is), not a wait.
	if left := lingering(); len(left) > 0 {
		t.Fatalf("goroutines outlived Close:\n%s", strings.Join(left, "\n\n"))
	}
	if _, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Host: &testHost{}}); err == nil {
		t.Error("a session opened after Close")
	}
}

// lingering returns ownGoroutines once those their owner has already
// released have run out. A goroutine that signals its owner in a deferred
// call (WaitGroup.Done, closing a done channel) still shows on its
// function's last line until the scheduler runs it again, and its exit
// has no event to wait for: like goleak, look again, yielding between
// looks, for up to a second before calling one left over.
func lingering() []string {
	deadline := time.Now().Add(time.Second)
	for {
		left := ownGoroutines()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		runtime.Gosched()
	}
}

// ownGoroutines returns the stacks of goroutines started by tandem's
// packages, MCP clients or os/exec, except the calling test's own (and
// its doubles': llmtest, testenv).
func ownGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var left []string
	for i, g := range bytes.Split(buf, []byte("\n\n")) {
		s := string(g)
		if i == 0 { // the calling goroutine
			continue
		}
		if strings.Contains(s, "testing.tRunner") || strings.Contains(s, "llmtest.") || strings.Contains(s, "internal/testenv.") {
			continue
		}
		// One whose stack starts in runtime.goexit1 has returned from its
		// function and is being torn down: its owner may rightly have
		// seen it finish (a goroutine's exit has no event to wait for).
		if _, frames, _ := strings.Cut(s, "\n"); strings.HasPrefix(frames, "runtime.goexit1(") {
			continue
		}
		for _, mark := range []string{"tandemhq/tandem/", "modelcontextprotocol", "os/exec."} {
			if strings.Contains(s, mark) {
				left = append(left, s)
				break
			}
		}
	}
	return left
}

// children lists the live (not zombie) child processes of this process.
func children() []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, ppid, ok := testenv.Stat(pid); ok && ppid == os.Getpid() && state != "Z" {
			out = append(out, pid)
		}
	}
	return out
}
