package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// Host.CallMCPTool sends host/mcp/callTool with the server, tool and
// arguments, and hands back the host's result, or its refusal as an error
// carrying CodeDenied.
func TestCallMCPTool(t *testing.T) {
	toPlugin, hostOut := io.Pipe()
	hostIn, fromPlugin := io.Pipe()
	p := &sdk.Plugin{Tools: []sdk.Tool{{Def: sdk.ToolDef{Name: "relay", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(ctx context.Context, h *sdk.Host, in sdk.CallToolParams) (sdk.CallToolResult, error) {
			res, err := h.CallMCPTool(ctx, sdk.MCPCallToolParams{Server: "gh", Tool: string(in.Arguments), Arguments: json.RawMessage(`{"n":17}`)})
			var rpcErr *jsonrpc.Error
			if errors.As(err, &rpcErr) && rpcErr.Code == sdk.CodeDenied {
				return sdk.Text("denied: " + rpcErr.Message), nil
			}
			return res, err
		}}}}
	go func() {
		p.Serve(context.Background(), toPlugin, fromPlugin)
		fromPlugin.Close()
	}()
	host := jsonrpc.NewConn(hostIn, hostOut, jsonrpc.Options{Handler: jsonrpc.Methods{
		sdk.HostMCPCallTool: jsonrpc.Typed(func(_ context.Context, in sdk.MCPCallToolParams) (sdk.CallToolResult, error) {
			if in.Tool == `"secret"` {
				return sdk.CallToolResult{}, &jsonrpc.Error{Code: sdk.CodeDenied, Message: "a deny rule"}
			}
			return sdk.Text(in.Server + "/" + in.Tool + " " + string(in.Arguments)), nil
		}),
	}.Handle})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go host.Serve(ctx)
	if err := host.Call(ctx, sdk.MethodInitialize, sdk.InitializeParams{ProtocolVersion: "1", SessionID: "s1"}, nil); err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]string{`"issue"`: `gh/"issue" {"n":17}`, `"secret"`: "denied: a deny rule"} {
		var res sdk.CallToolResult
		if err := host.Call(ctx, sdk.MethodToolsCall, sdk.CallToolParams{Name: "relay", Arguments: json.RawMessage(tool)}, &res); err != nil || res.TextOf() != want {
			t.Errorf("%s: %q %v", tool, res.TextOf(), err)
		}
	}
	host.Call(ctx, sdk.MethodShutdown, nil, nil)
}
