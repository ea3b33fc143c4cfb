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

// startMCP connects servers in the background; their tools reach the
// actor's catalog in messages as they become ready.
func (s *Session) startMCP(ctx context.Context, servers []mcp.Server) {
	if len(servers) == 0 {
		return
	}
	m := mcp.Start(ctx, s.MCPOptions(mcp.Options{Root: s.root, Servers: servers, Log: s.a.log.With("session", s.id)}))
	if s.change(func() { s.st.extra.mcp = append(s.st.extra.mcp, m) }) != nil {
		m.Close() // the session closed meanwhile; not on the actor, which m may be waiting for
	}
}

// askProjectMCP asks, once, before starting the servers a repository's
// .tandem/mcp.json names: they are commands from a clone, which is no
// reason to run them unasked (.tandem/ is protected for the same reason).
func (s *Session) askProjectMCP(ctx context.Context) error {
	var pending []mcp.Server
	s.do(ctx, func() { pending, s.st.extra.projectMCP = s.st.extra.projectMCP, nil })
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
		s.startMCP(context.WithoutCancel(ctx), pending)
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
