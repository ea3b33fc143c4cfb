package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/tools"
)

// awaitMCP holds the turn's first request back while MCP servers are still
// starting, so the model sees their tools from the start. Each server
// waited for is shown as a tool call ("Starting MCP server X"), which every
// front door renders; one that fails is reported, and one still starting
// when the bound (Config.MCPStartupWait) passes is reported too and joins
// later in the background: the turn goes on without it.
func (t *turnRun) awaitMCP() {
	s, ctx := t.s, t.ctx
	bound := s.a.cfg.MCPStartupWait
	if bound == 0 {
		bound = mcp.DefaultStartupWait
	}
	if bound < 0 {
		return
	}
	var (
		managers []*mcp.Manager
		waited   map[string]bool
	)
	s.read(func() { managers, waited = slices.Clone(s.mcp.running), maps.Clone(s.mcp.waited) })
	deadline := time.Now().Add(bound)
	for _, m := range managers {
		starting := slices.DeleteFunc(m.Starting(), func(name string) bool { return waited[name] })
		if len(starting) == 0 {
			continue
		}
		s.do(ctx, func() {
			if s.mcp.waited == nil {
				s.mcp.waited = map[string]bool{}
			}
			for _, name := range starting {
				s.mcp.waited[name] = true
			}
		})
		ids := map[string]string{}
		for _, name := range starting {
			ids[name] = "mcp_start_" + strings.TrimPrefix(newMessageID(), "m_")
			s.emit(Update{Type: ToolCallStarted, Tool: &ToolCall{ID: ids[name], Title: "Starting MCP server " + name,
				Kind: tools.KindOther, Status: ToolInProgress}})
		}
		late := m.Await(ctx, starting, time.Until(deadline), func(st mcp.Status) {
			id, ok := ids[st.Name]
			if !ok {
				return
			}
			if st.State == "ready" {
				s.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: id, Status: ToolCompleted,
					Content: []ToolContent{TextContent(fmt.Sprintf("MCP server %s is ready with %d tools (%s).", st.Name, st.Tools, st.ConnectTime.Round(time.Millisecond)))}}})
				return
			}
			s.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: id, Status: ToolFailed,
				Content: []ToolContent{TextContent(st.Err)}}})
		})
		for _, name := range late {
			msg := fmt.Sprintf("MCP server %s is still starting after %s; this turn goes on without its tools (they join once it is ready).", name, bound)
			if ctx.Err() != nil {
				msg = "Stopped waiting for MCP server " + name + ": the turn was cancelled."
			}
			s.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: ids[name], Status: ToolFailed, Content: []ToolContent{TextContent(msg)}}})
		}
	}
}

// mcpInstructions adds the instructions of the session's MCP servers to
// the history, each server's once: a block already in the history (sent in
// an earlier turn, or replayed from the log) is not sent again, and one
// dropped by a compaction comes back. Like the workspace instructions they
// are a message, never part of the system prompt, so the request prefix
// stays byte-stable.
func (t *turnRun) mcpInstructions() {
	s := t.s
	var managers []*mcp.Manager
	s.read(func() { managers = slices.Clone(s.mcp.running) })
	var b strings.Builder
	for _, m := range managers {
		for _, in := range m.Instructions() {
			block := mcpInstructionsBlock(in)
			if !t.historyHas(block) {
				b.WriteString(block)
			}
		}
	}
	if b.Len() > 0 {
		t.appendHistory(llm.Text(llm.RoleUser, b.String()))
	}
}

func mcpInstructionsBlock(in mcp.ServerInstructions) string {
	return fmt.Sprintf("<mcp-server-instructions server=%q>\n%s\n</mcp-server-instructions>\n", in.Server, strings.TrimSpace(in.Text))
}

// historyHas reports whether a text part of the history contains text.
func (t *turnRun) historyHas(text string) bool {
	for _, m := range t.history {
		for _, p := range m.Content {
			if p.Type == llm.PartText && strings.Contains(p.Text, text) {
				return true
			}
		}
	}
	return false
}
