package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tandemhq/tandem/agent/edits"
)

// currentContent is the file as the editor sees it, and whether it exists.
// A file the host cannot find, and that is not on disk either, is new.
func currentContent(ctx context.Context, env *Env, abs string) (content string, exists bool, err error) {
	content, err = env.Host.ReadFile(ctx, abs)
	if err == nil {
		return content, true, nil
	}
	if ctx.Err() != nil {
		return "", false, ctx.Err()
	}
	if _, statErr := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) || errors.Is(statErr, fs.ErrNotExist) {
		return "", false, nil
	}
	return "", false, err
}

// applyChange is the one write path of the edit tools: ask with the diff,
// then hand the edit to the editor. A rejection by the user or the editor
// is a result the model reads; only a broken host is an error.
func applyChange(ctx context.Context, env *Env, title string, fe edits.FileEdit, shown string) (Result, error) {
	if env.Ask != nil {
		err := env.Ask(ctx, Ask{Title: title, Kind: KindEdit, Path: fe.Path, Edit: &fe})
		if errors.Is(err, ErrRejected) {
			return rejectedByUser("the change to "+shown, err), nil
		}
		if err != nil {
			return Result{}, err
		}
	}
	if why := changedSince(env.RootOf(fe.Path), fe); why != "" {
		return failure("the change to %s was not made: %s while the permission prompt was open. Nothing was written; read the file again and retry if it still makes sense.", shown, why), nil
	}
	res, err := env.Host.ApplyEdit(ctx, fe)
	if err != nil {
		return Result{}, fmt.Errorf("apply edit to %s: %w", fe.Path, err)
	}
	if !res.Applied {
		reason := res.Reason
		if reason == "" {
			reason = "no reason given"
		}
		return failure("the editor rejected the edit to %s: %s. Nothing was written; read the file again before retrying.", shown, reason), nil
	}
	return Result{
		Edits:     []edits.FileEdit{fe},
		Touched:   []string{fe.Path},
		Locations: []Location{{Path: fe.Path, Line: firstChangedLine(fe.Old, fe.New)}},
	}, nil
}

// changedSince says how the target of fe changed after it was resolved
// and shown for approval, or "" when it did not: a directory on the way or
// the file itself swapped for a symlink (the write would land elsewhere,
// perhaps outside the root), the file replaced by something that is not a
// regular file, or a file appearing where a new one was to be created. The check is repeated right
// before the write, after the user's answer, so an approval covers only
// the file that was shown. root is one of the Env's roots, a real path.
func changedSince(root string, fe edits.FileEdit) string {
	now, fi, err := resolveInInfo(root, fe.Path)
	if err != nil {
		return "its path no longer resolves inside the workspace"
	}
	if now != fe.Path {
		return "its path now leads through a symlink to " + now
	}
	if fi == nil {
		// The walk stopped short of the file (missing) or did not end on
		// it: look at it directly.
		fi, err = os.Lstat(fe.Path)
	}
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		// Still new, or only in the editor's buffer: nothing redirects it.
		return ""
	case err != nil:
		return "it can no longer be inspected (" + err.Error() + ")"
	case fe.Create:
		return "a file of that name appeared"
	case !fi.Mode().IsRegular():
		return "it is no longer a regular file"
	}
	return ""
}

// firstChangedLine is the 1-based line where old and new first differ, so
// an editor following the agent jumps to the change.
func firstChangedLine(old, new string) int {
	line := 1
	for i := 0; i < len(old) && i < len(new); i++ {
		if old[i] != new[i] {
			return line
		}
		if old[i] == '\n' {
			line++
		}
	}
	return line
}
