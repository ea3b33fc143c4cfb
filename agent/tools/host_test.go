package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
)

// testHost stands in for an editor: local.Host underneath, with any method
// overridable by a function field (an editor with unsaved buffers, one that
// rejects edits...).
type testHost struct {
	local.Host
	readFile   func(ctx context.Context, path string) (string, error)
	applyEdit  func(ctx context.Context, e edits.FileEdit) (edits.Result, error)
	runCommand func(ctx context.Context, spec CommandSpec) (CommandResult, error)
}

func (h *testHost) ReadFile(ctx context.Context, path string) (string, error) {
	if h.readFile != nil {
		return h.readFile(ctx, path)
	}
	return h.Host.ReadFile(ctx, path)
}

func (h *testHost) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	if h.applyEdit != nil {
		return h.applyEdit(ctx, e)
	}
	return h.Host.ApplyEdit(ctx, e)
}

func (h *testHost) RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error) {
	if h.runCommand != nil {
		return h.runCommand(ctx, spec)
	}
	return h.Host.RunCommand(ctx, spec)
}

// asker records permission requests and answers them with answer.
type asker struct {
	mu     sync.Mutex
	asks   []Ask
	answer error
}

func (a *asker) ask(_ context.Context, req Ask) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asks = append(a.asks, req)
	return a.answer
}

func (a *asker) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asks)
}

type fixture struct {
	root  string
	host  *testHost
	asker *asker
	env   *Env
}

// newFixture makes a workspace root holding files (path -> content).
func newFixture(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, files)
	f := &fixture{root: root, host: &testHost{}, asker: &asker{}}
	f.env = &Env{Root: root, Host: f.host, Ask: f.asker.ask}
	return f
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run calls tool with args (marshalled to JSON) and fails on a Go error.
func (f *fixture) run(t *testing.T, tool Tool, args any) Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Run(context.Background(), f.env, raw)
	if err != nil {
		t.Fatalf("%s(%s): unexpected Go error: %v", tool.Info().Name, raw, err)
	}
	return res
}

func (f *fixture) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func (f *fixture) abs(name string) string { return filepath.Join(f.root, filepath.FromSlash(name)) }
