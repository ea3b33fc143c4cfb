package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/plugin"
	"github.com/tandemhq/tandem/agent/plugin/bundled"
	"github.com/tandemhq/tandem/internal/testenv"
	"github.com/tandemhq/tandem/plugin/checkpoints"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// The bundled checkpoints plugin served in this process (Options.InProcess),
// as tandem serves it, in three sessions at once under the race detector:
// each session's edit is undone in that session only, no process is
// started, and closing the agent ends every instance.
func TestBundledPluginInProcess(t *testing.T) {
	bundledCheckpoints(t, plugin.Options{InProcess: func(name string) *sdk.Plugin {
		if name == "checkpoints" {
			return checkpoints.Plugin()
		}
		return nil
	}}, func() {
		if kids := children(t, os.Getpid()); len(kids) > 0 {
			t.Errorf("the bundled plugin started processes: %q", kids)
		}
	})
}

// The same plugin as a process of its own (`tandem __plugin checkpoints`,
// the protocol on stdio), as tandem runs it when it is not compiled in.
func TestBundledPluginAsProcess(t *testing.T) {
	bundledCheckpoints(t, plugin.Options{Self: testenv.Tandem(t)}, func() {
		if kids := children(t, os.Getpid()); len(kids) < 3 {
			t.Errorf("three sessions run the plugin in %d processes: %q", len(kids), kids)
		}
	})
}

// bundledCheckpoints runs the checkpoints plugin with o (plus a home, the
// bundled plugins, the environment) in three sessions at once, checks
// the edits and, after afterEdits, /undo in the first session.
func bundledCheckpoints(t *testing.T, o plugin.Options, afterEdits func()) {
	home := t.TempDir()
	srv := llmtest.NewServer(t)
	provider := anthropic.New(anthropic.Options{APIKey: "test", BaseURL: srv.URL})
	o.Home, o.Bundled, o.Environ, o.Poll = home, bundled.FS, os.Environ(), 50*time.Millisecond
	rt := plugin.New(o)
	cfg := agent.Config{Provider: provider, Model: "m", Home: home, CustomSources: rt.CustomSources, Contributions: rt.Contributions}
	rt.Contribute(&cfg.Pipeline)
	a := agent.New(cfg)
	defer a.Close(context.Background())

	const sessions = 3
	type run struct {
		root string
		s    *agent.Session
	}
	runs := make([]run, sessions)
	for i := range runs {
		root, _ := filepath.EvalSymlinks(t.TempDir())
		must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
		h := &testHost{}
		h.Root = root
		s, err := a.NewSession(context.Background(), agent.SessionOptions{Cwd: root, Host: h, Mode: agent.ModeFullAuto})
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = run{root, s}
	}
	// Each session's turn is a write, then a text once the write's result
	// is back. Answered by what the request holds, not from one queue in
	// arrival order: with a queue, a session quick enough to ask again
	// before the others asked once took a second write, and another
	// session got "done" without ever writing.
	args, _ := json.Marshal(map[string]string{"path": "a.txt", "content": "new\n"})
	srv.Handle(func(req *llmtest.Request) llmtest.Reply {
		last := req.Messages[len(req.Messages)-1]
		for _, p := range last.Content {
			if p.Type == llm.PartToolResult {
				return llmtest.Reply{Text: []string{"done"}}
			}
		}
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: string(args)}}}
	})
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := r.s.Prompt(ctx, []agent.ContentBlock{{Type: "text", Text: "edit"}}); err != nil {
				t.Errorf("prompt: %v", err)
			}
		}()
	}
	wg.Wait()
	for _, r := range runs {
		if b, _ := os.ReadFile(filepath.Join(r.root, "a.txt")); string(b) != "new\n" {
			t.Fatalf("after the edit %s holds %q", r.root, b)
		}
	}
	afterEdits()
	// /undo in the first session puts back its file only.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := runs[0].s.Prompt(ctx, []agent.ContentBlock{{Type: "text", Text: "/undo"}}); err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		want := "new\n"
		if i == 0 {
			want = "old\n"
		}
		if b, _ := os.ReadFile(filepath.Join(r.root, "a.txt")); string(b) != want {
			t.Errorf("session %d: a.txt holds %q after /undo in session 0, want %q", i, b, want)
		}
	}
}

// A bundled plugin whose handler panics, called in this process, is that
// plugin's failure, not tandem's: the edit goes on without its say, the
// plugin is reported failed and comes back after its backoff.
func TestBundledPluginPanicIsItsFault(t *testing.T) {
	home := t.TempDir()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	bundledFS := fstest.MapFS{"panicky/plugin.json": {Data: []byte(`{"name":"panicky","version":"1.0.0","defaultEnabled":true,
		"apiVersion":"1","main":"tandem __plugin panicky","hookTimeoutMs":5000,"permissions":{"lifecycle":true}}`)}}
	changes := make(chan plugin.Change, 16)
	rt := plugin.New(plugin.Options{Home: home, Bundled: bundledFS, Environ: os.Environ(), Poll: time.Hour, Backoff: time.Millisecond,
		Changed: func(c plugin.Change) { changes <- c },
		InProcess: func(name string) *sdk.Plugin {
			return &sdk.Plugin{BeforeFileEdit: func(context.Context, *sdk.Host, sdk.BeforeFileEditParams) (sdk.BeforeFileEditResult, error) {
				panic("boom")
			}}
		}})
	cfg := agent.Config{Model: "m", Home: home, CustomSources: rt.CustomSources, Contributions: rt.Contributions}
	rt.Contribute(&cfg.Pipeline)
	a := agent.New(cfg)
	defer a.Close(context.Background())
	h := &testHost{}
	h.Root = root
	s, err := a.NewSession(context.Background(), agent.SessionOptions{Cwd: root, Host: h, Mode: agent.ModeFullAuto})
	if err != nil {
		t.Fatal(err)
	}
	next := func() plugin.Change {
		select {
		case c := <-changes:
			return c
		case <-time.After(30 * time.Second):
			t.Fatal("no change of the plugin reported")
			return plugin.Change{}
		}
	}
	if c := next(); !c.Up {
		t.Fatalf("first change: %+v", c)
	}
	e := agent.EditEvent{SessionID: s.ID(), ToolCallID: "c1", Edit: edits.FileEdit{Path: filepath.Join(root, "a.txt"), New: "x\n", Create: true}}
	for _, f := range cfg.Pipeline.BeforeEdit {
		if err := f(context.Background(), e); err != nil {
			t.Errorf("a panicking plugin decided the edit: %v", err)
		}
	}
	if c := next(); c.Up || !strings.Contains(c.Why, "panicked: boom") {
		t.Fatalf("after the panic: %+v", c)
	}
	if c := next(); !c.Up || c.Restarts != 1 {
		t.Fatalf("after the backoff: %+v", c)
	}
}
