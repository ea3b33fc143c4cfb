package acp

import (
	"context"

	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/mcp"
)

var _ agent.ElicitCompleter = (*host)(nil)

// Elicit passes an MCP server's question to a client that declared
// elicitation support for its mode, as ACP's elicitation/create tied to
// the session; the client shows the form (or the link) and answers with
// the user's action and values. Other clients get the permission prompt.
func (h *host) Elicit(ctx context.Context, e mcp.Elicitation) (mcp.Answer, error) {
	caps := h.caps.Elicitation
	params := map[string]any{"sessionId": h.sessionID(), "message": fmt.Sprintf("MCP server %s asks: %s", e.Server, e.Message)}
	switch {
	case caps == nil:
		return mcp.Answer{}, agent.ErrCannotAsk
	case e.URL != "":
		if caps.Url == nil || e.ID == "" {
			return mcp.Answer{}, agent.ErrCannotAsk
		}
		params["mode"], params["url"], params["elicitationId"] = "url", e.URL, e.ID
	default:
		if caps.Form == nil || e.Schema == nil {
			return mcp.Answer{}, agent.ErrCannotAsk
		}
		params["mode"], params["requestedSchema"] = "form", e.Schema
	}
	if err := h.beforeRequest(ctx); err != nil {
		return mcp.Answer{}, err
	}
	var resp struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	err := h.srv.conn.Call(ctx, sdk.ClientMethodElicitationCreate, params, &resp)
	switch {
	case ctx.Err() != nil:
		return mcp.Answer{Action: "cancel"}, nil
	case err != nil:
		return mcp.Answer{}, fmt.Errorf("asking the editor (elicitation/create): %w", err)
	}
	switch resp.Action {
	case "accept":
		return mcp.Answer{Action: "accept", Content: resp.Content}, nil
	case "cancel":
		return mcp.Answer{Action: "cancel"}, nil
	}
	return mcp.Answer{Action: "decline"}, nil
}

// ElicitComplete tells a client that showed a url-mode elicitation itself
// (it declared url support) that the server reports the step done, as
// ACP's elicitation/complete; the id is the one elicitation/create carried.
func (h *host) ElicitComplete(ctx context.Context, e mcp.Elicitation) error {
	if caps := h.caps.Elicitation; caps == nil || caps.Url == nil || e.ID == "" {
		return agent.ErrCannotAsk
	}
	if err := h.beforeRequest(ctx); err != nil {
		return err
	}
	params := sdk.UnstableCompleteElicitationNotification{ElicitationId: sdk.UnstableElicitationId(e.ID)}
	if err := h.srv.conn.Notify(ctx, sdk.ClientMethodElicitationComplete, params); err != nil {
		return fmt.Errorf("telling the editor (elicitation/complete): %w", err)
	}
	return nil
}
