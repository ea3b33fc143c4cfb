package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
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
