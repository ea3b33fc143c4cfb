package acp

import (
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/mcp"
)

// mcpServers converts the editor's mcpServers to the agent's; both read
// and write ACP's JSON shape, so the conversion goes through it.
func mcpServers(in []sdk.McpServer) ([]mcp.Server, error) {
	if len(in) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil, invalidParams("mcpServers cannot be read: %v", err)
	}
	var out []mcp.Server
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, invalidParams("mcpServers cannot be read: %v", err)
	}
	return out, nil
}
