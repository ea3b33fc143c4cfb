package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/tools"
)

// elicitOptions are the buttons of an MCP server's question.
var elicitOptions = []PermissionOption{
	{ID: "accept", Name: "Accept", Kind: AllowOnce},
	{ID: "decline", Name: "Decline", Kind: RejectOnce},
}

// Elicitor is a Host that can show an MCP server's question itself, as a
// form or a link (ACP elicitation/create), and return the user's answer.
// It returns ErrCannotAsk when its editor cannot show this one; the
// question then goes to the permission prompt.
type Elicitor interface {
	Elicit(ctx context.Context, e mcp.Elicitation) (mcp.Answer, error)
}

// ElicitCompleter is an Elicitor whose editor can also hear that the step
// behind a link it showed (a url-mode elicitation) is complete, as ACP's
// elicitation/complete, so it can close what it shows for the link. It
// returns ErrCannotAsk when its editor did not show the link itself.
type ElicitCompleter interface {
	ElicitComplete(ctx context.Context, e mcp.Elicitation) error
}

// elicitDoneWait bounds telling the editor that an elicitation completed.
const elicitDoneWait = 10 * time.Second

// elicitDone forwards an MCP server's word that the user finished the step
// behind a link it asked them to open: to an editor that showed the link
// itself, as its completion; otherwise (the link was in a permission
// prompt, long answered) as a notice in the conversation's stream.
func (p *mcpServers) elicitDone(e mcp.Elicitation) {
	s := p.s
	if el, ok := p.elicitor(); ok {
		if c, ok := el.(ElicitCompleter); ok {
			ctx, cancel := context.WithTimeout(context.Background(), elicitDoneWait)
			err := c.ElicitComplete(ctx, e)
			cancel()
			if err == nil {
				return
			}
			if !errors.Is(err, ErrCannotAsk) {
				s.a.log.Warn("telling the editor an MCP elicitation completed", "session", s.id, "server", e.Server, "err", err)
			}
		}
	}
	s.emit(Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text",
		Text: fmt.Sprintf("\n[tandem] MCP server %s reports that the step at %s is complete.\n", e.Server, e.URL)}})
}

// elicitor is the session's host as an Elicitor, once the updates before
// the question are on their way.
func (p *mcpServers) elicitor() (Elicitor, bool) {
	s := p.s
	h := s.host
	if o, ok := h.(orderedHost); ok {
		o.out.drain()
		h = o.Host
	}
	el, ok := h.(Elicitor)
	return el, ok
}

// elicit shows an MCP server's elicitation/create to the user through the
// front door's permission prompt (ACP session/request_permission, LSP
// tandem/requestPermission or window/showMessageRequest) and turns the
// choice into the server's answer. A front door that cannot ask, and a
// form whose required fields tandem cannot fill, get a decline.
func (p *mcpServers) elicit(ctx context.Context, e mcp.Elicitation) (mcp.Answer, error) {
	s := p.s
	decline := mcp.Answer{Action: "decline"}
	if el, ok := p.elicitor(); ok {
		a, err := el.Elicit(ctx, e)
		if !errors.Is(err, ErrCannotAsk) {
			return a, err
		}
	}
	if len(e.Missing) > 0 {
		s.notice(fmt.Sprintf("MCP server %q asked for %s, which tandem cannot collect through a yes/no prompt; it was declined.",
			e.Server, strings.Join(e.Missing, ", ")))
		return decline, nil
	}
	text := e.Message
	if e.URL != "" {
		text += "\n\nThe server asks you to open: " + e.URL
	}
	title, _, _ := strings.Cut(strings.TrimSpace(e.Message), "\n")
	d, err := s.host.RequestPermission(ctx, PermissionRequest{
		ToolCall: ToolCall{ID: "mcp_elicit_" + strings.TrimPrefix(newMessageID(), "m_"),
			Title: fmt.Sprintf("MCP server %s asks: %s", e.Server, title), Kind: tools.KindOther,
			Status: ToolPending, Content: []ToolContent{TextContent(text)}},
		Options: elicitOptions,
	})
	switch {
	case errors.Is(err, ErrCannotAsk):
		s.notice(fmt.Sprintf("MCP server %q asked a question this editor cannot show; it was declined.", e.Server))
		return decline, nil
	case err != nil:
		return mcp.Answer{}, err
	case d.Cancelled:
		return mcp.Answer{Action: "cancel"}, nil
	case d.Kind == AllowOnce:
		return mcp.Answer{Action: "accept", Content: e.Content}, nil
	}
	return decline, nil
}
