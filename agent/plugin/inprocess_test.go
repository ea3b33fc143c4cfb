package plugin

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/plugin/sdk"
)

func inProcessSpec(t *testing.T) spawnSpec {
	return spawnSpec{
		argv: []string{"tandem", "__plugin", "test"},
		log:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		garbage: func(p *process, line string) {
			t.Errorf("garbage from an in-process plugin: %q", line)
		},
	}
}

// A plugin served in process answers over the same protocol as a child
// process, and shutdown ends it cleanly.
func TestInProcessPlugin(t *testing.T) {
	pl := &sdk.Plugin{Tools: []sdk.Tool{{
		Def: sdk.ToolDef{Name: "shout", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(ctx context.Context, h *sdk.Host, p sdk.CallToolParams) (sdk.CallToolResult, error) {
			return sdk.CallToolResult{Content: []sdk.Content{{Type: "text", Text: strings.ToUpper(string(p.Arguments))}}}, nil
		},
	}}}
	p := serveInProcess(pl, inProcessSpec(t))
	ctx := context.Background()
	var init sdk.InitializeResult
	if err := p.conn.Call(ctx, sdk.MethodInitialize, sdk.InitializeParams{ProtocolVersion: sdk.ProtocolVersion}, &init); err != nil {
		t.Fatal(err)
	}
	if len(init.Tools) != 1 || init.Tools[0].Name != "shout" {
		t.Fatalf("initialize offered %+v", init.Tools)
	}
	var res sdk.CallToolResult
	if err := p.conn.Call(ctx, sdk.MethodToolsCall, sdk.CallToolParams{Name: "shout", Arguments: json.RawMessage(`"hi"`)}, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Text != `"HI"` {
		t.Fatalf("tools/call answered %+v", res)
	}
	p.close(time.Second)
	select {
	case <-p.done:
	default:
		t.Fatal("close returned before the plugin ended")
	}
	if p.exitErr != nil {
		t.Errorf("a plugin that was shut down ended with %v", p.exitErr)
	}
}

// A plugin stuck where nothing reaches it (not its context) does not
// hold up close: the call stays with its caller, close refuses new ones,
// and the plugin is counted as failed.
func TestInProcessPluginStuck(t *testing.T) {
	release, stuck := make(chan struct{}), make(chan struct{})
	defer close(release)
	pl := &sdk.Plugin{
		Observes: []string{"turnEnd"},
		Observe: func(context.Context, *sdk.Host, string, json.RawMessage) {
			close(stuck)
			<-release
		},
	}
	p := serveInProcess(pl, inProcessSpec(t))
	go p.conn.Notify(context.Background(), sdk.HookPrefix+"turnEnd", map[string]any{})
	<-stuck
	closed := make(chan struct{})
	go func() {
		p.close(50 * time.Millisecond)
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("close waited for a stuck in-process plugin")
	}
	if p.exitErr == nil {
		t.Error("a stuck plugin that was closed ended without an error")
	}
	if err := p.conn.Notify(context.Background(), sdk.HookPrefix+"turnEnd", map[string]any{}); err == nil {
		t.Error("a closed plugin took a hook")
	}
}
