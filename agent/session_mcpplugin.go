package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/tools"
)

// ErrNoMCPTool is returned by CallMCPTool for a tool the session's MCP
// servers do not offer (now).
var ErrNoMCPTool = errors.New("no such MCP tool")

// CallMCPTool runs a tool of one of the session's MCP servers for a caller
// other than the model (a plugin, named by caller), under the rules the
// model's own call of it would meet: the mode must offer MCP tools, and
// the permission policy judges it — a deny rule refuses it, and where the
// policy would ask, the user is asked, the question naming the caller
// (an editor that cannot ask means no). A refusal is an error wrapping
// tools.ErrRejected. No tool-call hooks run and nothing joins the
// conversation: the call is the caller's, not the model's. A result the
// server marked as an error is a Result with IsError set.
func (s *Session) CallMCPTool(ctx context.Context, caller, server, tool string, args json.RawMessage) (tools.Result, error) {
	name := mcp.ToolName(server, tool)
	var (
		tl tools.Tool
		ok bool
	)
	s.read(func() { tl, ok = s.st.catalog.Get(name) })
	if !ok || tl.Info().Group != tools.GroupMCP {
		return tools.Result{}, fmt.Errorf("%w: %s of server %s", ErrNoMCPTool, tool, server)
	}
	info := tl.Info()
	now := s.viewNow()
	if mode := now.mode; !now.defs.modes.exposes(mode, info.Group) {
		return tools.Result{}, fmt.Errorf("%w: MCP tools are not available in %s mode", tools.ErrRejected, mode)
	}
	id := "mcp_call_" + newMessageID()
	var refused error
	env := &tools.Env{Root: s.root, Roots: s.roots, CallID: id, Ask: func(ctx context.Context, a tools.Ask) error {
		a.Title = caller + ": " + a.Title // the question says whose call it is
		err := s.perms.judgeAsk(ctx, s.viewNow(), ToolCall{ID: id, Title: a.Title, Kind: info.Kind}, info, a, false, false)
		if errors.Is(err, tools.ErrRejected) {
			refused = err
		}
		return err
	}}
	res, err := tl.Run(ctx, env, args)
	switch {
	case err != nil:
		return tools.Result{}, err
	case refused != nil:
		if refused == tools.ErrRejected {
			return tools.Result{}, fmt.Errorf("%w: the user said no", tools.ErrRejected)
		}
		return tools.Result{}, fmt.Errorf("%w: %v", tools.ErrRejected, refused)
	}
	res.Output = guardResult(s.a.cfg.Redact, s.a.cfg.MaxResultBytes, res.Output)
	return res, nil
}

// MCPOptions returns o with the session's handling of what its MCP
// servers tell it, for a manager someone else starts and attaches
// (AttachMCP): notices shown in the conversation, prompt and resource
// changes announced (the resource tools, the editor's command list),
// elicitations put to the user and their completion passed on, remote
// sign-ins kept with the session's own. OnTools, when o has none, puts the
// servers' tools in the session's catalog. Roots, when o has none, are the
// session's additional roots, so its servers list every root (roots/list).
// The session's own servers are started with the same options.
func (s *Session) MCPOptions(o mcp.Options) mcp.Options {
	if o.Roots == nil {
		o.Roots = s.roots
	}
	if o.OnTools == nil {
		o.OnTools = s.updateCatalog
	}
	o.OnNotice, o.OnOffers = s.notice, s.mcp.offersChanged
	o.OnElicit, o.OnElicitDone = s.mcp.elicit, s.mcp.elicitDone
	if o.OAuthFile == "" {
		o.OAuthFile = oauthFile(s.a.cfg.Home)
	}
	return o
}

// AttachMCP makes m, a manager its caller started and owns (a plugin's
// servers), one of the session's MCP connections: a turn's first request
// waits for its servers as for the session's own (Config.MCPStartupWait,
// each shown as a tool call), and their instructions reach the model with
// the session's. detach takes it out again; the caller still closes m.
func (s *Session) AttachMCP(m *mcp.Manager) (detach func()) {
	if s.change(func() { s.mcp.running = append(s.mcp.running, m) }) != nil {
		return func() {}
	}
	// A server that came up before m joined the session announced its
	// prompts or resources to a session that did not list m yet.
	if len(m.Prompts()) > 0 || m.HasResources() {
		s.mcp.offersChanged()
	}
	return func() {
		if s.change(func() {
			s.mcp.running = slices.DeleteFunc(s.mcp.running, func(x *mcp.Manager) bool { return x == m })
		}) == nil {
			s.mcp.offersChanged()
		}
	}
}
