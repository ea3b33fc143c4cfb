package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// fakeHost answers the plugin's host calls as a host in the same process
// would: readFile, and every call recorded.
type fakeHost struct{ calls []string }

func (h *fakeHost) Call(_ context.Context, method string, params, result any) error {
	h.calls = append(h.calls, method)
	if r, ok := result.(*sdk.ReadFileResult); ok {
		r.Content = "hello"
	}
	return nil
}

func (h *fakeHost) Notify(_ context.Context, method string, _ any) error {
	h.calls = append(h.calls, method)
	return nil
}

// A Plugin served directly answers as Serve does: typed values in and
// out (a pointer to a pointer as decide passes it, or JSON-shaped values
// through an encoding), errors as JSON-RPC errors, host calls to the
// host it was given, observing hooks in order with their JSON.
func TestDirect(t *testing.T) {
	var observed []string
	p := &sdk.Plugin{
		Tools: []sdk.Tool{{Def: sdk.ToolDef{Name: "read", InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(ctx context.Context, h *sdk.Host, in sdk.CallToolParams) (sdk.CallToolResult, error) {
				text, err := h.ReadFile(ctx, "a.txt")
				return sdk.Text(h.Init.SessionID + ":" + text), err
			}}},
		BeforeFileEdit: func(_ context.Context, _ *sdk.Host, in sdk.BeforeFileEditParams) (sdk.BeforeFileEditResult, error) {
			if in.Path == "/bad" {
				return sdk.BeforeFileEditResult{}, errors.New("no snapshot")
			}
			f := false
			return sdk.BeforeFileEditResult{Allow: &f, Reason: in.Path}, nil
		},
		Observes: []string{sdk.HookAfterFileEdit},
		Observe: func(_ context.Context, _ *sdk.Host, hook string, raw json.RawMessage) {
			observed = append(observed, hook+" "+string(raw))
		},
	}
	host := &fakeHost{}
	d := p.Direct(host)
	ctx := context.Background()

	var init sdk.InitializeResult
	if err := d.Call(ctx, sdk.MethodInitialize, sdk.InitializeParams{ProtocolVersion: "1", SessionID: "s1"}, &init); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(init.Hooks, []string{sdk.HookBeforeFileEdit, sdk.HookAfterFileEdit}) || len(init.Tools) != 1 {
		t.Errorf("initialize: %+v", init)
	}
	var res sdk.CallToolResult
	if err := d.Call(ctx, sdk.MethodToolsCall, sdk.CallToolParams{Name: "read"}, &res); err != nil || res.TextOf() != "s1:hello" {
		t.Errorf("tools/call: %+v %v", res, err)
	}
	var r *sdk.BeforeFileEditResult
	if err := d.Call(ctx, sdk.HookPrefix+sdk.HookBeforeFileEdit, sdk.BeforeFileEditParams{Path: "/a"}, &r); err != nil ||
		r == nil || r.Allow == nil || *r.Allow || r.Reason != "/a" {
		t.Errorf("beforeFileEdit: %+v %v", r, err)
	}
	// Params and result of other shapes go through JSON, as on the wire.
	var m map[string]any
	if err := d.Call(ctx, sdk.HookPrefix+sdk.HookBeforeFileEdit, map[string]any{"path": "/b"}, &m); err != nil || m["reason"] != "/b" {
		t.Errorf("beforeFileEdit through JSON: %v %v", m, err)
	}
	var rerr *jsonrpc.Error
	if err := d.Call(ctx, sdk.HookPrefix+sdk.HookBeforeFileEdit, sdk.BeforeFileEditParams{Path: "/bad"}, nil); !errors.As(err, &rerr) || rerr.Message != "no snapshot" {
		t.Errorf("a handler's error: %v", err)
	}
	if err := d.Call(ctx, sdk.HookPrefix+sdk.HookBeforeToolCall, nil, nil); !errors.As(err, &rerr) || rerr.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("a hook the plugin does not implement: %v", err)
	}
	for _, path := range []string{"/1", "/2"} {
		if err := d.Notify(ctx, sdk.HookPrefix+sdk.HookAfterFileEdit, sdk.AfterFileEditParams{Path: path, Applied: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Notify(ctx, sdk.HookPrefix+sdk.HookTurnEnd, sdk.TurnEndParams{}); err != nil {
		t.Errorf("a hook the plugin does not observe: %v", err)
	}
	want := []string{`afterFileEdit {"sessionId":"","toolCallId":"","path":"/1","applied":true}`,
		`afterFileEdit {"sessionId":"","toolCallId":"","path":"/2","applied":true}`}
	if !slices.Equal(observed, want) {
		t.Errorf("observed %q, want %q", observed, want)
	}
	if !slices.Equal(host.calls, []string{sdk.HostReadFile}) {
		t.Errorf("host calls: %v", host.calls)
	}
	if err := d.Call(ctx, sdk.MethodShutdown, nil, nil); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// A handler's panic comes back as a *PanicError, and an answer after the
// call's deadline as the deadline's error: the host does not use it.
func TestDirectPanicAndLate(t *testing.T) {
	p := &sdk.Plugin{
		BeforeAsk: func(ctx context.Context, _ *sdk.Host, in sdk.BeforeAskParams) (sdk.BeforeAskResult, error) {
			if in.Tool == "panic" {
				panic("boom")
			}
			<-ctx.Done()
			return sdk.BeforeAskResult{Decision: "deny"}, nil
		},
	}
	d := p.Direct(&fakeHost{})
	var pe *sdk.PanicError
	if err := d.Call(context.Background(), sdk.HookPrefix+sdk.HookBeforeAsk, sdk.BeforeAskParams{Tool: "panic"}, nil); !errors.As(err, &pe) || pe.Value != "boom" {
		t.Errorf("a panicking handler: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	var r *sdk.BeforeAskResult
	if err := d.Call(ctx, sdk.HookPrefix+sdk.HookBeforeAsk, sdk.BeforeAskParams{Tool: "slow"}, &r); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a late answer: %v", err)
	}
}
