package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
)

// RequestPermission asks through session/request_permission. The tool call
// it carries includes the diff or the exact command, so the editor shows
// what it is approving. When ctx ends first (the prompt was cancelled) the
// connection withdraws the request with $/cancel_request and the answer is
// "cancelled".
func (h *host) RequestPermission(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	tc, err := toolCallUpdate(req.ToolCall)
	if err != nil {
		return agent.Decision{}, err
	}
	options := req.Options
	if len(options) == 0 {
		options = agent.DefaultPermissionOptions()
	}
	opts := make([]sdk.PermissionOption, len(options))
	for i, o := range options {
		opts[i] = sdk.PermissionOption{OptionId: sdk.PermissionOptionId(o.ID), Name: o.Name, Kind: sdk.PermissionOptionKind(o.Kind)}
	}
	if err := h.beforeRequest(ctx); err != nil {
		if ctx.Err() != nil {
			return agent.Decision{Cancelled: true}, nil
		}
		return agent.Decision{}, err
	}
	resp, err := call[sdk.RequestPermissionResponse](ctx, h.srv.conn, sdk.ClientMethodSessionRequestPermission,
		sdk.RequestPermissionRequest{SessionId: h.sessionID(), ToolCall: tc, Options: opts})
	if ctx.Err() != nil {
		return agent.Decision{Cancelled: true}, nil
	}
	if err != nil {
		return agent.Decision{}, fmt.Errorf("asking the editor for permission: %w", err)
	}
	switch {
	case resp.Outcome.Cancelled != nil:
		return agent.Decision{Cancelled: true}, nil
	case resp.Outcome.Selected != nil:
		id := string(resp.Outcome.Selected.OptionId)
		for _, o := range options {
			if o.ID == id {
				return agent.Decision{Kind: o.Kind}, nil
			}
		}
		// An answer tandem did not offer approves nothing.
		h.srv.log.Warn("acp: the client chose an option that was not offered; rejecting", "option", id)
		return agent.Decision{Kind: agent.RejectOnce}, nil
	}
	return agent.Decision{}, fmt.Errorf("the editor answered session/request_permission without an outcome")
}
