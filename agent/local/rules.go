package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/pathx"
)

// The rules below are the agent.Host contract's, shared by every host so
// that an edit is refused for the same reasons, in the same words, whether
// the disk or an editor holds the file.

// ErrNotAbsolute is the error for a relative path: hosts never guess what
// it is relative to.
var ErrNotAbsolute = errors.New("the path is not absolute")

// Refusal is why a host refuses to edit path, or "" when it may: the path
// must be absolute and, when root is set, inside root. The test is lexical;
// tools.Resolve has already followed symlinks, and the local host's os.Root
// refuses any link that would still lead out.
func Refusal(root, path string) string {
	if !filepath.IsAbs(path) {
		return ErrNotAbsolute.Error()
	}
	if root == "" {
		return ""
	}
	if _, ok := pathx.Within(root, path); !ok {
		return "the path is outside the workspace root " + root
	}
	return ""
}

// Conflict is why e cannot be applied to a file whose current content (as
// the host sees it: the unsaved buffer, else the disk) is current, or ""
// when it can. exists is false when the file is neither open nor on disk.
func Conflict(e edits.FileEdit, current string, exists bool) string {
	switch {
	case e.Create && exists:
		return "the file already exists"
	case !e.Create && !exists:
		return "the file no longer exists"
	case !e.Create && current != e.Old:
		return "the file changed since it was read"
	}
	return ""
}

// Check applies both rules to e for a host whose view of a file is read
// (an editor host's ReadFile): the reason to refuse e, or "" to go ahead.
// An error means the view could not be read.
func Check(ctx context.Context, root string, e edits.FileEdit, read func(context.Context, string) (string, error)) (string, error) {
	if reason := Refusal(root, e.Path); reason != "" {
		return reason, nil
	}
	current, err := read(ctx, e.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read %s before editing it: %w", e.Path, err)
	}
	return Conflict(e, current, err == nil), nil
}
