package codeindex

import (
	"context"

	"github.com/tandemhq/tandem/internal/filelist"
)

// The helpers below run one half of listFiles with the index's own options,
// so the tests check what the index lists, not only the shared lister.

// walkFiles lists source files without git, unsorted.
func walkFiles(ctx context.Context, root string, dirs *dirCache) (files, problems []string, err error) {
	res, err := filelist.Walk(ctx, root, listOptions(dirs))
	return res.Files, problemText(res.Problems), err
}

// gitFiles lists source files through git ls-files, unsorted.
func gitFiles(ctx context.Context, root string) ([]string, error) {
	return filelist.Git(ctx, root, listOptions(nil))
}

// skipped reports whether a slash-separated relative path lies in a skipped directory.
func skipped(rel string) bool { return filelist.Skipped(rel, filelist.SkipDirs()) }
