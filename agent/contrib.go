package agent

import "context"

// RequestPermission asks the session's user through its front door, for a
// contributor that needs consent of its own (a repository's hook
// commands). It returns ErrCannotAsk when the editor cannot ask.
func (s *Session) RequestPermission(ctx context.Context, req PermissionRequest) (Decision, error) {
	return s.host.RequestPermission(ctx, req)
}

// Notice tells the user about something outside the conversation; the
// model never sees it.
func (s *Session) Notice(msg string) { s.notice(msg) }
