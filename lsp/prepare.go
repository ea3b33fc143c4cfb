package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
)

// prepare holds fe to the agent.Host rules before it is planned: ctx still
// live, the path inside the session root, and the edit matching the
// editor's view (open buffer, applied-edit overlay, else disk). It returns
// the reason to refuse, or "". For a Create it then makes the parent
// directories, which LSP leaves to each client's createFile while every
// host's Create promises them.
func (ss *session) prepare(ctx context.Context, fe edits.FileEdit) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if ss.sess == nil {
		return "the session is not ready", nil
	}
	reason, err := local.Check(ctx, ss.sess.RootOf(fe.Path), fe, ss.ReadFile)
	if err != nil || reason != "" {
		return reason, err
	}
	if fe.Create {
		if err := os.MkdirAll(filepath.Dir(fe.Path), 0o755); err != nil {
			return "", fmt.Errorf("create directory for %s: %w", fe.Path, err)
		}
	}
	return "", nil
}
