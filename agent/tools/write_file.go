package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tandemhq/tandem/agent/edits"
)

// WriteFileName is the model-facing name of the whole-file write tool.
const WriteFileName = "write_file"

//go:embed write_file.md
var writeFileDescription string

const writeFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace root. Missing parent directories are created."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

type writeFileParams struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
}

type writeFileTool struct{}

// NewWriteFile returns the write_file tool.
func NewWriteFile() Tool { return writeFileTool{} }

func (writeFileTool) Info() Info {
	return Info{Name: WriteFileName, Group: GroupEdit, Kind: KindEdit,
		Description: writeFileDescription, Schema: json.RawMessage(writeFileSchema)}
}

func (writeFileTool) Describe(root string, input json.RawMessage) Preview {
	var p writeFileParams
	_ = json.Unmarshal(input, &p)
	display, abs := previewPath(root, p.Path)
	return Preview{Title: "Write " + display, Locations: previewLocations(abs, 1)}
}

func (writeFileTool) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	var p writeFileParams
	if err := decodeArgs(WriteFileName, input, &p); err != nil {
		return failureErr(err), nil
	}
	if p.Content == nil {
		return failure("content is missing; give the complete new content of the file (an empty string empties it)"), nil
	}
	abs, err := Resolve(env.Root, p.Path)
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
	if exists && old == *p.Content {
		return Result{Output: fmt.Sprintf("%s already has exactly this content; nothing to write.", shown), Touched: []string{abs}}, nil
	}
	fe := edits.FileEdit{Path: abs, Old: old, New: *p.Content, Create: !exists, Label: WriteFileName + ": " + shown}
	res, err := applyChange(ctx, env, "Write "+shown, fe, shown)
	if err != nil || res.IsError {
		return res, err
	}
	verb := "Wrote"
	if fe.Create {
		verb = "Created"
	}
	res.Output = fmt.Sprintf("%s %s (%d lines).", verb, shown, strings.Count(*p.Content, "\n")+boolInt(!strings.HasSuffix(*p.Content, "\n") && *p.Content != ""))
	return res, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
