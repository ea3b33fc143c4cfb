package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tandemhq/tandem/agent"
)

// RequestPermission asks the user through the best path the client has:
// tandem/requestPermission when it declared experimental.tandem.permissions,
// else window/showMessageRequest with the options as buttons. A client with
// neither (Helix) cannot be asked: the agent's policy decides what that
// means (ErrCannotAsk), and the session tells the user once why calls are
// being refused.
func (ss *session) RequestPermission(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	caps := ss.srv.clientCaps()
	switch {
	case ss.previewInstead(req.ToolCall):
		return agent.Decision{Kind: agent.AllowOnce}, nil
	case caps.Experimental.Tandem.Permissions:
		return ss.askTandem(ctx, req)
	case caps.showMessageRequest():
		return ss.askMessage(ctx, req)
	}
	ss.noticeOnce.Do(func() {
		if err := ss.srv.conn.notify("window/showMessage", map[string]any{"type": messageWarning, "message": cannotAskNotice}); err != nil {
			ss.srv.log.Warn("cannot send window/showMessage", "err", err)
		}
	})
	return agent.Decision{}, agent.ErrCannotAsk
}

const cannotAskNotice = "tandem: this editor cannot show permission prompts, so tandem refuses whatever would need one; each refusal says why and which mode would allow it."

type requestPermissionParams struct {
	SessionID string                   `json:"sessionId"`
	ToolCall  agent.ToolCall           `json:"toolCall"`
	Options   []agent.PermissionOption `json:"options"`
}

// permissionOutcome is ACP's RequestPermissionOutcome.
type permissionOutcome struct {
	Outcome struct {
		Outcome  string `json:"outcome"` // selected | cancelled
		OptionID string `json:"optionId"`
	} `json:"outcome"`
}

func (ss *session) askTandem(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	var out permissionOutcome
	err := ss.srv.conn.call(ctx, "tandem/requestPermission",
		requestPermissionParams{SessionID: ss.id, ToolCall: req.ToolCall, Options: req.Options}, &out)
	if ctx.Err() != nil {
		return agent.Decision{Cancelled: true}, nil
	}
	if err != nil {
		return agent.Decision{}, fmt.Errorf("tandem/requestPermission: %w", err)
	}
	if out.Outcome.Outcome == "cancelled" {
		return agent.Decision{Cancelled: true}, nil
	}
	for _, o := range req.Options {
		if o.ID == out.Outcome.OptionID {
			return agent.Decision{Kind: o.Kind}, nil
		}
	}
	return agent.Decision{}, fmt.Errorf("tandem/requestPermission: the client chose unknown option %q", out.Outcome.OptionID)
}

type messageAction struct {
	Title string `json:"title"`
}

type showMessageRequestParams struct {
	Type    int             `json:"type"`
	Message string          `json:"message"`
	Actions []messageAction `json:"actions"`
}

const messageWarning = 2

func (ss *session) askMessage(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	actions := make([]messageAction, len(req.Options))
	for i, o := range req.Options {
		actions[i] = messageAction{Title: o.Name}
	}
	var picked *messageAction
	err := ss.srv.conn.call(ctx, "window/showMessageRequest",
		showMessageRequestParams{Type: messageWarning, Message: permissionMessage(req.ToolCall), Actions: actions}, &picked)
	if ctx.Err() != nil {
		return agent.Decision{Cancelled: true}, nil
	}
	if err != nil {
		return agent.Decision{}, fmt.Errorf("window/showMessageRequest: %w", err)
	}
	if picked == nil {
		// Dismissed without a choice: no is the safe answer.
		return agent.Decision{Kind: agent.RejectOnce}, nil
	}
	for _, o := range req.Options {
		if o.Name == picked.Title {
			return agent.Decision{Kind: o.Kind}, nil
		}
	}
	return agent.Decision{}, errors.New("window/showMessageRequest: the client answered with an action it was not offered")
}

// permissionMessage is the prompt text: what the tool wants to do, where,
// and the text it carries (the command line, the rules a repository wants
// to allow), since a message box has no other place to show it.
func permissionMessage(tc agent.ToolCall) string {
	var b strings.Builder
	b.WriteString("tandem wants to run: ")
	b.WriteString(labelOr(tc.Title, string(tc.Kind)))
	for _, l := range tc.Locations {
		b.WriteString("\n  ")
		b.WriteString(l.Path)
	}
	for _, c := range tc.Content {
		if c.Content != nil && c.Content.Text != "" {
			b.WriteString("\n")
			b.WriteString(truncate(c.Content.Text, maxMessageText))
		}
	}
	return b.String()
}

// maxMessageText bounds the text a permission message box shows.
const maxMessageText = 2000

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
