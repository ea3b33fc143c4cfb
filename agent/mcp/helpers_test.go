package mcp

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/testenv"
)

// recorder collects what a Manager announces and lets a test wait for it.
type recorder struct {
	mu      sync.Mutex // guards the fields below
	tools   map[string]tools.Tool
	removed []string
	notices []string
	changed chan struct{} // buffered(1)
}

func newRecorder() *recorder {
	return &recorder{tools: map[string]tools.Tool{}, changed: make(chan struct{}, 1)}
}

func (r *recorder) onTools(add []tools.Tool, remove []string) {
	r.mu.Lock()
	for _, n := range remove {
		delete(r.tools, n)
		r.removed = append(r.removed, n)
	}
	for _, t := range add {
		r.tools[t.Info().Name] = t
	}
	r.mu.Unlock()
	r.poke()
}

func (r *recorder) onNotice(msg string) {
	r.mu.Lock()
	r.notices = append(r.notices, msg)
	r.mu.Unlock()
	r.poke()
}

func (r *recorder) poke() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// wait checks cond (under the lock) at each change until it holds or the
// deadline passes.
func (r *recorder) wait(t *testing.T, what string, d time.Duration, cond func(r *recorder) bool) {
	t.Helper()
	deadline := time.After(d)
	for {
		r.mu.Lock()
		ok := cond(r)
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-deadline:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("timed out waiting for %s; tools %v, notices %q", what, slices.Sorted(mapKeys(r.tools)), r.notices)
		}
	}
}

func (r *recorder) tool(t *testing.T, name string) tools.Tool {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	tl, ok := r.tools[name]
	if !ok {
		t.Fatalf("no tool %s; have %v", name, slices.Sorted(mapKeys(r.tools)))
	}
	return tl
}

func (r *recorder) snapshot() (names []string, notices []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(mapKeys(r.tools)), slices.Clone(r.notices)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// start runs a Manager that reports into a new recorder and is closed at
// the end of the test.
func start(t *testing.T, o Options) (*Manager, *recorder) {
	t.Helper()
	rec := newRecorder()
	o.OnTools, o.OnNotice = rec.onTools, rec.onNotice
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if o.Root == "" {
		o.Root = t.TempDir()
	}
	m := Start(context.Background(), o)
	t.Cleanup(func() { _ = m.Close() })
	return m, rec
}

func waitReady(t *testing.T, m *Manager, d time.Duration) {
	t.Helper()
	select {
	case <-m.Ready():
	case <-time.After(d):
		t.Fatalf("servers not ready after %s: %+v", d, m.Status())
	}
}

// waitTools waits for the servers to settle and n tools to reach the recorder.
func waitTools(t *testing.T, m *Manager, rec *recorder, n int) {
	t.Helper()
	waitReady(t, m, 15*time.Second)
	rec.wait(t, strconv.Itoa(n)+" tools", 5*time.Second, func(r *recorder) bool { return len(r.tools) == n })
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// approve is a tools.Env whose user says yes to everything, counting asks.
type approve struct {
	mu   sync.Mutex // guards asks
	asks []tools.Ask
}

func (a *approve) env(root string) *tools.Env {
	return &tools.Env{Root: root, Ask: func(_ context.Context, q tools.Ask) error {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.asks = append(a.asks, q)
		return nil
	}}
}

func run(t *testing.T, tl tools.Tool, input string) tools.Result {
	t.Helper()
	var a approve
	res, err := tl.Run(context.Background(), a.env(t.TempDir()), []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", tl.Info().Name, err)
	}
	if len(a.asks) != 1 {
		t.Fatalf("%s asked %d times, want once", tl.Info().Name, len(a.asks))
	}
	return res
}

// fake is the test binary serving as an MCP server in the given mode; its
// log records the calls and cancellations it saw, line by line as it sees
// them (a named pipe the test reads), so a test can wait for one.
func fake(t *testing.T, name, mode string) (Server, *fakeLog) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "fake.log")
	log := &fakeLog{testenv.FifoLog(t, logPath)}
	return Server{Name: name, Type: TypeStdio, Command: os.Args[0], Args: []string{"-test.run=^$"},
		// A race-enabled binary sleeps a second on exit unless told not to.
		Env: []NameValue{{"TANDEM_MCP_FAKE", mode}, {"TANDEM_MCP_FAKE_LOG", logPath}, {"GORACE", "atexit_sleep_ms=0"}}}, log
}

// fakeLog is what fake servers logged so far.
type fakeLog struct{ *testenv.PipeLog }

// await waits until the log says want (5 s bounds a failure).
func (l *fakeLog) await(t *testing.T, want string) {
	t.Helper()
	if !l.Await(5*time.Second, want) {
		t.Fatalf("the fake server never logged %q:\n%s", want, l.String())
	}
}

// descendants lists the processes below this one (zombies included, since
// an unreaped child is a leak too), read from /proc.
func descendants(t testing.TB) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		f := strings.Fields(rest)
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid] = ppid
	}
	self := os.Getpid()
	var out []int
	for pid := range parent {
		for p := parent[pid]; p != 0; p = parent[p] {
			if p == self {
				out = append(out, pid)
				break
			}
			if _, ok := parent[p]; !ok {
				break
			}
		}
	}
	return out
}

// waitDescendants waits for the processes below this one that were not in
// before to end (d bounds a failure), and returns how many of them are
// left. A zombie counts: whoever started it should have reaped it by then.
func waitDescendants(t *testing.T, before []int, d time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, pid := range descendants(t) {
		if !slices.Contains(before, pid) {
			testenv.WaitExited(pid, time.Until(deadline))
		}
	}
	n := 0
	for _, pid := range descendants(t) {
		if !slices.Contains(before, pid) {
			n++
		}
	}
	return n
}
