package sdk_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// A Plugin served over pipes, driven as tandem drives it: it announces
// what is set, answers tools, hooks and transforms, reaches the host from
// a handler, and stops on shutdown.
func TestServe(t *testing.T) {
	toPlugin, hostOut := io.Pipe()
	hostIn, fromPlugin := io.Pipe()
	var logged []string
	p := &sdk.Plugin{
		Tools: []sdk.Tool{{Def: sdk.ToolDef{Name: "read", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(ctx context.Context, h *sdk.Host, in sdk.CallToolParams) (sdk.CallToolResult, error) {
				text, err := h.ReadFile(ctx, "a.txt")
				return sdk.Text(h.Init.SessionID + ":" + text), err
			}}},
		TransformSystemPrompt: func(_ context.Context, _ *sdk.Host, in sdk.TransformParams) (string, error) {
			return in.Prompt + "!", nil
		},
		BeforeToolCall: func(context.Context, *sdk.Host, sdk.BeforeToolCallParams) (sdk.BeforeToolCallResult, error) {
			return sdk.Deny("no"), nil
		},
	}
	served := make(chan error, 1)
	go func() {
		served <- p.Serve(context.Background(), toPlugin, fromPlugin)
		fromPlugin.Close()
	}()
	host := jsonrpc.NewConn(hostIn, hostOut, jsonrpc.Options{Handler: jsonrpc.Methods{
		sdk.HostReadFile: jsonrpc.Typed(func(_ context.Context, in sdk.PathParams) (sdk.ReadFileResult, error) {
			logged = append(logged, in.Path)
			return sdk.ReadFileResult{Content: "hello"}, nil
		}),
	}.Handle})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go host.Serve(ctx)

	var init sdk.InitializeResult
	if err := host.Call(ctx, sdk.MethodInitialize, sdk.InitializeParams{ProtocolVersion: "1", SessionID: "s1"}, &init); err != nil {
		t.Fatal(err)
	}
	if init.ProtocolVersion != "1" || !init.SystemPrompt || len(init.Tools) != 1 || !slices.Equal(init.Hooks, []string{sdk.HookBeforeToolCall}) {
		t.Errorf("initialize: %+v", init)
	}
	var res sdk.CallToolResult
	if err := host.Call(ctx, sdk.MethodToolsCall, sdk.CallToolParams{Name: "read"}, &res); err != nil || res.TextOf() != "s1:hello" {
		t.Errorf("tools/call: %+v %v", res, err)
	}
	var tr sdk.TransformResult
	if err := host.Call(ctx, sdk.MethodTransform, sdk.TransformParams{Prompt: "p"}, &tr); err != nil || tr.Prompt != "p!" {
		t.Errorf("transform: %+v %v", tr, err)
	}
	var bt sdk.BeforeToolCallResult
	if err := host.Call(ctx, sdk.HookPrefix+sdk.HookBeforeToolCall, sdk.BeforeToolCallParams{Tool: "x"}, &bt); err != nil || bt.Allow == nil || *bt.Allow || bt.Reason != "no" {
		t.Errorf("beforeToolCall: %+v %v", bt, err)
	}
	if err := host.Call(ctx, sdk.HookPrefix+sdk.HookAfterToolCall, nil, nil); err == nil {
		t.Error("a hook the plugin does not implement was answered")
	}
	if err := host.Call(ctx, sdk.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the plugin did not stop on shutdown")
	}
	if !slices.Equal(logged, []string{"a.txt"}) {
		t.Errorf("host calls: %v", logged)
	}
}
