package agent

import (
	"context"
	"fmt"

	"github.com/tandemhq/tandem/agent/tools"
)

// ask decides whether a tool call may go ahead: the mode's policy first,
// then remembered "always" answers, then the user. Writes to protected
// paths skip both shortcuts and always reach the user.
func (s *Session) ask(ctx context.Context, tc ToolCall, info tools.Info, a tools.Ask) error {
	protected := a.Path != "" && tools.Protected(s.root, a.Path, s.a.instructionsConfig().FileNames())
	if !protected {
		if s.Mode().autoApproves(info.Group) {
			return nil
		}
		switch s.remembered(info.Name) {
		case AllowAlways:
			return nil
		case RejectAlways:
			return tools.ErrRejected
		}
	}

	req := PermissionRequest{ToolCall: tc, Options: DefaultPermissionOptions()}
	req.ToolCall.Status = ToolPending
	if a.Title != "" {
		req.ToolCall.Title = a.Title
	}
	if a.Kind != "" {
		req.ToolCall.Kind = a.Kind
	}
	switch {
	case a.Edit != nil:
		req.ToolCall.Content = []ToolContent{DiffContent(*a.Edit)}
		req.ToolCall.Locations = []tools.Location{{Path: a.Edit.Path}}
	case a.Command != "":
		req.ToolCall.Content = []ToolContent{TextContent("$ " + a.Command)}
	}
	if protected {
		req.ToolCall.Title += " (protected file)"
	}

	s.setLifecycle(AwaitingPermission)
	d, err := s.host.RequestPermission(ctx, req)
	s.setLifecycle(Running)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("asking for permission: %w", err)
	}
	if d.Cancelled {
		// The editor withdrew the question: the user cancelled the turn.
		s.Cancel()
		return context.Canceled
	}
	switch d.Kind {
	case AllowOnce:
		return nil
	case AllowAlways:
		if !protected {
			s.remember(info.Name, AllowAlways)
		}
		return nil
	case RejectAlways:
		s.remember(info.Name, RejectAlways)
	}
	return tools.ErrRejected
}

func (s *Session) remember(tool string, k PermissionKind) {
	s.do(context.Background(), func() { s.st.always[tool] = k })
}

func (s *Session) remembered(tool string) (k PermissionKind) {
	s.read(func() { k = s.st.always[tool] })
	return k
}
