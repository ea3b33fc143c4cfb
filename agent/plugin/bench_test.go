package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/plugin"
	"github.com/tandemhq/tandem/agent/plugin/bundled"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/plugin/checkpoints"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// BenchmarkToolCallHooks measures what the plugin runtime adds to one tool
// call: the before and after seams, with no plugin and with three plugins
// that hook both (each a Go process answering at once). bench/plugins.sh
// runs it.
func BenchmarkToolCallHooks(b *testing.B) {
	for _, n := range []int{0, 3} {
		b.Run([]string{"none", "", "", "three"}[n], func(b *testing.B) {
			r := newRig(b)
			if n > 0 {
				bin := filepath.Join(b.TempDir(), "benchplugin")
				if out, err := exec.Command("go", "build", "-o", bin, "./testdata/benchplugin").CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				for i := range n {
					name := "bench-" + string(rune('a'+i))
					dir := filepath.Join(r.home, "plugins", name)
					os.MkdirAll(dir, 0o755)
					writeJSON(b, filepath.Join(dir, "plugin.json"), map[string]any{"name": name, "version": "1.0.0",
						"main": bin, "permissions": map[string]any{"lifecycle": true}})
					enable(b, r.home, name, dir, nil)
				}
			}
			s, _ := r.session(b, agent.ModeCode)
			for i := range n {
				r.waitUp(b, s.ID(), "bench-"+string(rune('a'+i)), 1)
			}
			ctx := context.Background()
			e := agent.ToolCallEvent{SessionID: s.ID(), ToolCallID: "c1", Tool: tools.Info{Name: "run_command"},
				Input: json.RawMessage(`{"command":"go test ./..."}`)}
			p := &r.pipe
			b.ResetTimer()
			for b.Loop() {
				for _, f := range p.BeforeToolCall {
					if _, err := f(ctx, e); err != nil {
						b.Fatal(err)
					}
				}
				res := agent.ToolResult{Output: "ok\n"}
				for _, f := range p.AfterToolCall {
					res = f(ctx, e, res)
				}
			}
		})
	}
}

// BenchmarkTurnSeamsNoPlugin measures what the runtime adds to one turn
// of one request when no plugin is enabled: turn start (which looks at
// plugins.json), before request (the cached system prompt), after
// response and turn end.
func BenchmarkTurnSeamsNoPlugin(b *testing.B) {
	r := newRig(b)
	s, _ := r.session(b, agent.ModeCode)
	ctx := context.Background()
	p := &r.pipe
	req := &llm.Request{Model: "m", System: strings.Repeat("x", 4000)}
	resp := &llm.Response{Message: llm.Text(llm.RoleAssistant, "ok")}
	b.ResetTimer()
	for b.Loop() {
		for _, f := range p.TurnStart {
			f(ctx, agent.TurnStartEvent{SessionID: s.ID()})
		}
		for _, f := range p.BeforeRequest {
			if err := f(ctx, agent.RequestEvent{SessionID: s.ID(), Request: req}); err != nil {
				b.Fatal(err)
			}
		}
		for _, f := range p.AfterResponse {
			f(ctx, agent.ResponseEvent{SessionID: s.ID(), Response: resp})
		}
		for _, f := range p.TurnEnd {
			f(ctx, agent.TurnEndEvent{SessionID: s.ID()})
		}
	}
}

// BenchmarkBundledEditHooks measures what the bundled checkpoints plugin,
// served in this process as tandem serves it, adds to one edit: its
// beforeFileEdit call and afterFileEdit hook, within one turn.
func BenchmarkBundledEditHooks(b *testing.B) {
	home, root := b.TempDir(), b.TempDir()
	ups := &upCounter{n: map[[2]string]int{}, wake: make(chan struct{})}
	rt := plugin.New(plugin.Options{Home: home, Bundled: bundled.FS, Environ: os.Environ(), Poll: time.Hour, Changed: ups.changed,
		InProcess: func(name string) *sdk.Plugin {
			if name == "checkpoints" {
				return checkpoints.Plugin()
			}
			return nil
		}})
	cfg := agent.Config{Model: "m", Home: home, CustomSources: rt.CustomSources, Contributions: rt.Contributions}
	rt.Contribute(&cfg.Pipeline)
	a := agent.New(cfg)
	b.Cleanup(func() { a.Close(context.Background()) })
	r := &rig{home: home, root: root, a: a, rt: rt, pipe: cfg.Pipeline, ups: ups}
	s, _ := r.session(b, agent.ModeFullAuto)
	r.waitUp(b, s.ID(), "checkpoints", 1)
	ctx := context.Background()
	p := &r.pipe
	for _, f := range p.TurnStart {
		f(ctx, agent.TurnStartEvent{SessionID: s.ID()})
	}
	e := agent.EditEvent{SessionID: s.ID(), ToolCallID: "c1",
		Edit: edits.FileEdit{Path: filepath.Join(root, "a.txt"), Old: "old\n", New: "new\n"}}
	for b.Loop() {
		for _, f := range p.BeforeEdit {
			if err := f(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
		for _, f := range p.AfterEdit {
			f(ctx, e, edits.Result{Applied: true}, nil)
		}
	}
}
