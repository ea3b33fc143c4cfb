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
