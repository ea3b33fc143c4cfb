package sdk

import (
	"context"
	"encoding/json"
)

// HostMCPCallTool calls a tool of one of the session's MCP servers (the
// user's, the project's, or a plugin's, named as tandem names them: a
// plugin's server is "<plugin>:<server>"). permissions.mcpInvoke. The call
// meets the permission policy the model's call of that tool would: a deny
// rule refuses it (CodeDenied), and where the policy asks, the user is
// asked, the question naming the plugin.
const HostMCPCallTool = "host/mcp/callTool"

// MCPCallToolParams name the server and tool, with the tool's arguments
// (a JSON object; omitted: none).
type MCPCallToolParams struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// CallMCPTool calls an MCP tool of the session. The result is the tool's,
// in MCP's shape; a refusal is an error (CodeDenied).
func (h *Host) CallMCPTool(ctx context.Context, p MCPCallToolParams) (CallToolResult, error) {
	var r CallToolResult
	err := h.conn.Call(ctx, HostMCPCallTool, p, &r)
	return r, err
}
