package tools

import (
	"context"

	"github.com/tandemhq/tandem/internal/filelist"
)

// gitFiles is the git half of workspaceFiles alone, for tests that check
// which strategy applies; it fails outside a git work tree.
func gitFiles(ctx context.Context, root, dir string) ([]string, error) {
	opts, err := listOptions(root, dir)
	if err != nil {
		return nil, err
	}
	return filelist.Git(ctx, root, opts)
}
