package plugin

import (
	"context"
	"errors"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// mcpCall is host/mcp/callTool: with permissions.mcpInvoke, one tool of
// any of the session's MCP servers, judged by the session's permission
// policy as the model's call would be (agent.Session.CallMCPTool). A
// refusal — a deny rule, the user's no — is CodeDenied with the reason.
func (i *instance) mcpCall(ctx context.Context, p sdk.MCPCallToolParams) (sdk.CallToolResult, error) {
	if err := permitted(i.st.Manifest.Permissions.MCPInvoke, sdk.HostMCPCallTool, "mcpInvoke"); err != nil {
		return sdk.CallToolResult{}, err
	}
	if p.Server == "" || p.Tool == "" {
		return sdk.CallToolResult{}, jsonrpc.InvalidParams("server and tool are required")
	}
	res, err := i.sess.s.CallMCPTool(ctx, i.name()+" plugin", p.Server, p.Tool, p.Arguments)
	switch {
	case errors.Is(err, tools.ErrRejected):
		return sdk.CallToolResult{}, &jsonrpc.Error{Code: sdk.CodeDenied, Message: err.Error()}
	case errors.Is(err, agent.ErrNoMCPTool):
		return sdk.CallToolResult{}, jsonrpc.InvalidParams("%v", err)
	case err != nil:
		return sdk.CallToolResult{}, err
	}
	return sdk.CallToolResult{Content: []sdk.Content{{Type: "text", Text: res.Output}}, IsError: res.IsError}, nil
}
