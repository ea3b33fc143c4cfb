package plugin

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/tools"
)

// MCPServers are the MCP servers a plugin contributes: contributes.mcpServers
// (with permissions.mcpServers), or a Claude Code plugin's .mcp.json. Each
// is named "<plugin>:<server>", so no plugin can replace the user's own
// servers; ${TANDEM_PLUGIN_ROOT} and ${TANDEM_PLUGIN_DATA} (and Claude
// Code's ${CLAUDE_PLUGIN_ROOT}) are the plugin's folders, other ${NAME}s
// come from the environment as in mcp.json.
func MCPServers(p *Plugin, root, data string) ([]mcp.Server, error) {
	var raw []byte
	switch {
	case p.Claude != nil && p.Claude.MCP != "":
		b, err := os.ReadFile(p.Claude.MCP)
		if err != nil {
			return nil, err
		}
		raw = b
	case p.Manifest.Permissions.MCPServers && len(p.Manifest.Contributes.MCPServers) > 0:
		b, err := json.Marshal(map[string]any{"servers": p.Manifest.Contributes.MCPServers})
		if err != nil {
			return nil, err
		}
		raw = b
	default:
		return nil, nil
	}
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	text := strings.NewReplacer(
		"${TANDEM_PLUGIN_ROOT}", quote(root), "${CLAUDE_PLUGIN_ROOT}", quote(root),
		"${TANDEM_PLUGIN_DATA}", quote(data), "${CLAUDE_PLUGIN_DATA}", quote(data),
	).Replace(string(raw))
	servers, err := mcp.ParseFile([]byte(text))
	for i := range servers {
		servers[i].Name = p.Manifest.Name + ":" + servers[i].Name
	}
	if err != nil {
		err = fmt.Errorf("the MCP servers of %s: %w", p.Manifest.Name, err)
	}
	return servers, err
}

// mcpTools tracks which tools a plugin's MCP servers put in the session,
// so they can be taken out again when the plugin goes.
type mcpTools struct {
	mu    sync.Mutex // guards names
	names map[string]bool
}

func (t *mcpTools) update(add []tools.Tool, remove []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names == nil {
		t.names = map[string]bool{}
	}
	for _, n := range remove {
		delete(t.names, n)
	}
	for _, tl := range add {
		t.names[tl.Info().Name] = true
	}
}

func (t *mcpTools) all() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for n := range t.names {
		out = append(out, n)
	}
	return out
}

// startMCP connects the plugin's MCP servers and attaches them to the
// session; their tools join it as they come up. It runs once per instance.
func (i *instance) startMCP() {
	dir, err := i.rt.folder(i.st.Plugin)
	if err != nil {
		i.log.Error("MCP servers not started", "err", err)
		return
	}
	servers, err := MCPServers(i.st.Plugin, dir, i.rt.dataDir(i.name()))
	if err != nil {
		i.log.Error("some MCP servers skipped", "err", err)
	}
	if len(servers) == 0 {
		return
	}
	// Notices, prompt and resource changes, elicitations and sign-ins are
	// handled as for the session's own servers; the tools are tracked too,
	// to be taken out when the plugin goes.
	m := mcp.Start(i.ctx, i.sess.s.MCPOptions(mcp.Options{
		Root: i.sess.root, Servers: servers, Log: i.log, Version: i.rt.o.Version,
		OnTools: func(add []tools.Tool, remove []string) {
			i.mcpTools.update(add, remove)
			i.sess.s.UpdateTools(add, remove)
		},
	}))
	// Attached to the session, its servers are waited for before a turn's
	// first request like the user's own (mcpStartupSeconds, shown to the
	// user), rather than here.
	detach := i.sess.s.AttachMCP(m)
	i.mu.Lock()
	i.mcp, i.detachMCP = m, detach
	i.mu.Unlock()
}
