package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/tools"
)

// mcpServers is the session's MCP part: its servers' connections (its
// own and those plugins attach), the project's servers waiting for the
// user's consent, and which servers a turn has waited for. Its fields
// other than s belong to the actor.
type mcpServers struct {
	s       *Session
	running []*mcp.Manager
	// project are servers of <root>/.tandem/mcp.json waiting for the
	// user's consent.
	project []mcp.Server
	// waited names the MCP servers a turn has waited for already
	// (session_mcpwait.go); none is waited for twice.
	waited map[string]bool
}

// start loads the MCP configuration and starts the trusted servers.
// It runs after the actor has started and reaches it by messages.
func (p *mcpServers) start(ctx context.Context, servers []mcp.Server) {
	s := p.s
	var user, project []mcp.Server
	if s.a.cfg.Home != "" {
		var err error
		if user, err = mcp.LoadFile(mcp.UserFile(s.a.cfg.Home)); err != nil {
			s.notice(fmt.Sprintf("some MCP servers in %s were skipped: %v", mcp.UserFile(s.a.cfg.Home), err))
		}
		if project, err = mcp.LoadFile(mcp.ProjectFile(s.root)); err != nil {
			s.notice(fmt.Sprintf("some MCP servers in %s were skipped: %v", mcp.ProjectFile(s.root), err))
		}
	}
	// The editor's servers win a name clash, then the user's.
	trusted := mcp.Merge(user, servers)
	names := map[string]bool{}
	for _, sv := range trusted {
		names[sv.Name] = true
	}
	var waiting []mcp.Server
	for _, sv := range project {
		if !names[sv.Name] {
			waiting = append(waiting, sv)
		}
	}
	s.do(context.Background(), func() { p.project = waiting })
	p.startServers(ctx, trusted)
}

// startServers connects servers in the background; their tools reach the
// actor's catalog in messages as they become ready.
func (p *mcpServers) startServers(ctx context.Context, servers []mcp.Server) {
	s := p.s
	if len(servers) == 0 {
		return
	}
	m := mcp.Start(ctx, s.MCPOptions(mcp.Options{Root: s.root, Servers: servers, Log: s.a.log.With("session", s.id)}))
	if s.change(func() { p.running = append(p.running, m) }) != nil {
		m.Close() // the session closed meanwhile; not on the actor, which m may be waiting for
	}
}

// askProject asks, once, before starting the servers a repository's
// .tandem/mcp.json names: they are commands from a clone, which is no
// reason to run them unasked (.tandem/ is protected for the same reason).
func (p *mcpServers) askProject(ctx context.Context) error {
	s := p.s
	var pending []mcp.Server
	s.do(ctx, func() { pending, p.project = p.project, nil })
	if len(pending) == 0 {
		return nil
	}
	var list strings.Builder
	for _, sv := range pending {
		fmt.Fprintf(&list, "- %s\n", sv)
	}
	d, err := s.host.RequestPermission(ctx, PermissionRequest{
		ToolCall: ToolCall{ID: "mcp-project-servers", Title: "Start the MCP servers of " + s.display(mcp.ProjectFile(s.root)),
			Kind: tools.KindExecute, Status: ToolPending, Content: []ToolContent{TextContent(list.String())}},
		// No "always" options: nothing remembers this answer, so each
		// session asks again.
		Options: []PermissionOption{
			{ID: string(AllowOnce), Name: "Start them in this session", Kind: AllowOnce},
			{ID: string(RejectOnce), Name: "Do not start them", Kind: RejectOnce},
		},
	})
	switch {
	case errors.Is(err, ErrCannotAsk):
		s.notice("The project's MCP servers (" + s.display(mcp.ProjectFile(s.root)) + ") were not started: this editor cannot show the permission prompt that starting them needs.")
		return nil
	case err != nil:
		return err
	case d.Cancelled:
		return context.Canceled
	case d.Kind == AllowOnce:
		p.startServers(context.WithoutCancel(ctx), pending)
	default:
		s.notice("The project's MCP servers were not started.")
	}
	return nil
}

// sortMCPTools puts MCP tools after all others, sorted by name, leaving
// the others in catalog order. The catalog holds MCP tools in the order
// their servers happened to connect and list them; sorting makes the same
// set of tools the same request bytes, whatever that order was, and a
// list change moves only the tools it touched.
func sortMCPTools(ts []tools.Tool) {
	slices.SortStableFunc(ts, func(a, b tools.Tool) int {
		ai, bi := a.Info(), b.Info()
		am, bm := ai.Group == tools.GroupMCP, bi.Group == tools.GroupMCP
		switch {
		case am && bm:
			return strings.Compare(ai.Name, bi.Name)
		case am:
			return 1
		case bm:
			return -1
		}
		return 0
	})
}

// oauthFile is where remote MCP servers' sign-ins are kept; none without
// a home.
func oauthFile(home string) string {
	if home == "" {
		return ""
	}
	return mcp.OAuthFile(home)
}
