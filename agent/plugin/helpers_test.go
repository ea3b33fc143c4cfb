package plugin_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/agent/plugin"
	"github.com/tandemhq/tandem/internal/testenv"
)

// testHost is an editor that allows every ask and records the updates.
type testHost struct {
	local.Host
	mu      sync.Mutex
	asked   []agent.PermissionRequest
	updates []agent.Update
	changes testenv.Changes // an update was recorded
}

func (h *testHost) RequestPermission(_ context.Context, r agent.PermissionRequest) (agent.Decision, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, r)
	return agent.Decision{Kind: agent.AllowOnce}, nil
}

func (h *testHost) RunCommand(ctx context.Context, s agent.CommandSpec) (agent.CommandResult, error) {
	return local.Run(ctx, s)
}

func (h *testHost) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	return h.Host.ApplyEdit(ctx, e)
}

func (h *testHost) Send(u agent.Update) {
	h.mu.Lock()
	h.updates = append(h.updates, u)
	h.mu.Unlock()
	h.changes.Changed()
}

// awaitUpdate reports whether an update that match accepts was sent,
// waiting for it (10 s bounds a failure).
func (h *testHost) awaitUpdate(match func(agent.Update) bool) bool {
	return h.changes.Wait(10*time.Second, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return slices.ContainsFunc(h.updates, match)
	})
}

// toolResults returns the text of every finished tool call update.
func (h *testHost) toolText() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	for _, u := range h.updates {
		if u.Tool != nil {
			for _, c := range u.Tool.Content {
				if c.Content != nil {
					b.WriteString(c.Content.Text + "\n")
				}
			}
		}
	}
	return b.String()
}

// python returns python3's path or stops the test.
func python(t *testing.T) string { return testenv.Program(t, "python3") }

// pyPlugin writes a plugin folder under root running testdata/testplugin.py.
func pyPlugin(t *testing.T, root, name string, manifest map[string]any) string {
	t.Helper()
	python(t)
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("testdata/testplugin.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin.py"), src, 0o755); err != nil {
		t.Fatal(err)
	}
	m := map[string]any{"name": name, "version": "1.0.0", "description": "test plugin", "main": "python3 plugin.py"}
	for k, v := range manifest {
		m[k] = v
	}
	writeJSON(t, filepath.Join(dir, "plugin.json"), m)
	return dir
}

func writeJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// enable records the user's consent for the plugin in dir, with settings.
func enable(t testing.TB, home, name, dir string, settings map[string]any) {
	t.Helper()
	st, err := plugin.LoadState(home)
	if err != nil {
		t.Fatal(err)
	}
	c := &plugin.Choice{Enabled: true, Dir: dir}
	if settings != nil {
		c.Settings, _ = json.Marshal(settings)
	}
	st.Plugins[name] = c
	if err := st.Save(home); err != nil {
		t.Fatal(err)
	}
}

// rig is an agent with the plugin runtime, on the fake model server.
type rig struct {
	srv  *llmtest.Server
	home string
	root string
	a    *agent.Agent
	rt   *plugin.Runtime
	pipe agent.Pipeline
	ups  *upCounter
}

// upCounter counts the runtime's reports of plugins coming up, per
// session and plugin, so a test waits for a (re)start as an event.
type upCounter struct {
	// mu guards n and wake.
	mu   sync.Mutex
	n    map[[2]string]int
	wake chan struct{} // closed and replaced on every report
}

func (u *upCounter) changed(c plugin.Change) {
	if !c.Up {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.n[[2]string{c.Session, c.Plugin}]++
	close(u.wake)
	u.wake = make(chan struct{})
}

// waitUp waits until plugin name came up n times in session sid; the
// deadline only bounds a failure.
func (r *rig) waitUp(t testing.TB, sid, name string, n int) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		r.ups.mu.Lock()
		got, wake := r.ups.n[[2]string{sid, name}], r.ups.wake
		r.ups.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-wake:
		case <-timeout:
			t.Fatalf("plugin %s came up %d times in session %s, want %d", name, got, sid, n)
		}
	}
}

func newRig(t testing.TB) *rig { return newRigWith(t, nil) }

// newRigWith is newRig with the agent's config adjusted by tune.
func newRigWith(t testing.TB, tune func(*agent.Config)) *rig {
	t.Helper()
	home, root := t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	srv := llmtest.NewServer(t)
	provider := anthropic.New(anthropic.Options{APIKey: "test", BaseURL: srv.URL})
	ups := &upCounter{n: map[[2]string]int{}, wake: make(chan struct{})}
	rt := plugin.New(plugin.Options{Home: home, Environ: os.Environ(), Backoff: 50 * time.Millisecond, Poll: 50 * time.Millisecond,
		Provider: provider, Model: "m", Changed: ups.changed})
	cfg := agent.Config{Provider: provider, Model: "m", Home: home, CustomSources: rt.CustomSources, Contributions: rt.Contributions}
	rt.Contribute(&cfg.Pipeline)
	if tune != nil {
		tune(&cfg)
	}
	a := agent.New(cfg)
	t.Cleanup(func() { a.Close(context.Background()) })
	return &rig{srv: srv, home: home, root: root, a: a, rt: rt, pipe: cfg.Pipeline, ups: ups}
}

func (r *rig) session(t testing.TB, mode agent.Mode) (*agent.Session, *testHost) {
	t.Helper()
	h := &testHost{Host: local.Host{Root: r.root}}
	s, err := r.a.NewSession(context.Background(), agent.SessionOptions{Cwd: r.root, Host: h, Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	return s, h
}

func prompt(t *testing.T, s *agent.Session, text string) agent.StopReason {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := s.Prompt(ctx, []agent.ContentBlock{{Type: "text", Text: text}})
	if err != nil {
		t.Fatalf("prompt: %v", err)
	}
	return r
}

// calls reads what a test plugin recorded, as method names.
func calls(t *testing.T, home, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(home, "plugin-data", name, "calls.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct{ Method string }
		json.Unmarshal(sc.Bytes(), &c)
		out = append(out, c.Method)
	}
	return out
}

// recorder receives the lines test plugins record, as they record them
// (their "recordTo" setting), so a test waits for a call as an event
// instead of polling calls.jsonl.
type recorder struct {
	addr    string
	changes testenv.Changes
	mu      sync.Mutex // guards methods
	methods []string
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{addr: ln.Addr().String()}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex // guards conns
		conns []net.Conn
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				sc := bufio.NewScanner(c)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					var call struct{ Method string }
					json.Unmarshal(sc.Bytes(), &call)
					r.mu.Lock()
					r.methods = append(r.methods, call.Method)
					r.mu.Unlock()
					r.changes.Changed()
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return r
}

// await reports whether method was recorded, waiting for it (10 s bounds
// a failure).
func (r *recorder) await(method string) bool {
	return r.changes.Wait(10*time.Second, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return slices.Contains(r.methods, method)
	})
}
