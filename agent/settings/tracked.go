package settings

import (
	"context"
	"os/exec"
	"path/filepath"
	"time"
)

// tracked reports whether git tracks path in the repository at root. A
// repository that commits its "personal" settings file is handing out
// allow rules as its own, so they need the user's consent like the
// project file's. Without git, or outside a repository, nothing is
// tracked.
func tracked(ctx context.Context, root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "--error-unmatch", "--", rel)
	// The answer is the exit status; git's words go nowhere.
	return cmd.Run() == nil
}
