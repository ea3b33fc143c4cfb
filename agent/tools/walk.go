package tools

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/tandemhq/tandem/internal/filelist"
)

// maxWalkFiles bounds one enumeration so a huge tree cannot stall a call.
const maxWalkFiles = 200_000

// listOptions are the filelist options for listing dir (absolute, inside
// root). Symbolic links are listed as files, as the tools show them.
func listOptions(root, dir string) (filelist.Options, error) {
	rel, ok := within(root, dir)
	if !ok {
		return filelist.Options{}, errors.New("directory outside the root")
	}
	opts := filelist.Options{Skip: filelist.SkipDirs(), Symlinks: true, CheckGit: true, Max: maxWalkFiles}
	if rel != "." {
		opts.Dir = filepath.ToSlash(rel)
	}
	return opts, nil
}

// workspaceFiles lists the files under dir (absolute, inside root) that
// .gitignore does not exclude, as slash-separated paths relative to root,
// sorted. complete is false when the enumeration stopped at maxWalkFiles.
func workspaceFiles(ctx context.Context, root, dir string) (files []string, complete bool, err error) {
	opts, err := listOptions(root, dir)
	if err != nil {
		return nil, false, err
	}
	res, err := filelist.List(ctx, root, opts)
	if err != nil {
		return nil, false, err
	}
	// Other unreadable directories are simply left out, but a directory
	// that cannot be read at all is an error worth showing.
	for _, p := range res.Problems {
		if p.Dir == opts.Dir {
			return nil, false, p.Err
		}
	}
	return res.Files, !res.Truncated, nil
}
