package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/plugin"
	"github.com/tandemhq/tandem/agent/plugin/bundled"
	"github.com/tandemhq/tandem/plugin/checkpoints"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// The bundled checkpoints plugin served in this process (Options.InProcess),
// as tandem serves it, in three sessions at once under the race detector:
// each session's edit is undone in that session only, no process is
// started, and closing the agent ends every instance.
func TestBundledPluginInProcess(t *testing.T) {
	home := t.TempDir()
	srv := llmtest.NewServer(t)
	provider := anthropic.New(anthropic.Options{APIKey: "test", BaseURL: srv.URL})
	rt := plugin.New(plugin.Options{Home: home, Bundled: bundled.FS, Environ: os.Environ(), Poll: 50 * time.Millisecond,
		InProcess: func(name string) *sdk.Plugin {
			if name == "checkpoints" {
				return checkpoints.Plugin()
			}
			return nil
		}})
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
	if kids := children(t, os.Getpid()); len(kids) > 0 {
		t.Errorf("the bundled plugin started processes: %q", kids)
	}
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
