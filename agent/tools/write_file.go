package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/tandemhq/tandem/agent/edits"
)

// WriteFileName is the model-facing name of the whole-file write tool.
const WriteFileName = "write_file"

//go:embed write_file.md
var writeFileDescription string

type writeFileArgs struct {
	Path    string `json:"path" jsonschema:"File path, relative to the workspace root. Missing parent directories are created."`
	Content string `json:"content" jsonschema:"The complete new content of the file."`
}

// NewWriteFile returns the write_file tool.
func NewWriteFile() Tool {
	return New(Spec[writeFileArgs]{Name: WriteFileName, Group: GroupEdit, Kind: KindEdit,
		Doc: writeFileDescription, Run: runWriteFile, Describe: describeWriteFile})
}

func describeWriteFile(root string, p writeFileArgs) Preview {
	display, abs := previewPath(root, p.Path)
	return Preview{Title: "Write " + display, Locations: previewLocations(abs, 1)}
}

func runWriteFile(ctx context.Context, env *Env, p writeFileArgs) (Result, error) {
	abs, err := env.Resolve(p.Path)
	if err != nil {
		return failureErr(err), nil
	}
	shown := displayPath(env.Root, abs)
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return failure("%s is a directory; give a file path", shown), nil
	}
	old, exists, err := currentContent(ctx, env, abs)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return failure("cannot read %s before writing it: %v", shown, err), nil
	}
	// Models write "\n". Replacing a CRLF file with LF-only text would turn
	// every line into a change (in git, in the diff the user reviews) and
	// break the file's convention, so LF-only content takes the file's CRLF;
	// content with any "\r" is taken as the model wrote it, on purpose.
	if exists && isCRLF(old) && !strings.Contains(p.Content, "\r") {
		p.Content = toCRLF(p.Content)
	}
	if exists && old == p.Content {
		return Result{Output: fmt.Sprintf("%s already has exactly this content; nothing to write.", shown), Touched: []string{abs}}, nil
	}
	fe := edits.FileEdit{Path: abs, Old: old, New: p.Content, Create: !exists, Label: WriteFileName + ": " + shown}
	res, err := applyChange(ctx, env, "Write "+shown, fe, shown)
	if err != nil || res.IsError {
		return res, err
	}
	verb := "Wrote"
	if fe.Create {
		verb = "Created"
	}
	res.Output = fmt.Sprintf("%s %s (%d lines).", verb, shown, strings.Count(p.Content, "\n")+boolInt(!strings.HasSuffix(p.Content, "\n") && p.Content != ""))
	return res, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
