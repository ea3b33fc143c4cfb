package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/edits"
)

// EditFileName is the model-facing name of the string-replacement edit tool.
const EditFileName = "edit_file"

// editContextLines is how much of the edited region the result shows.
const editContextLines = 3

//go:embed edit_file.md
var editFileDescription string

type editFileArgs struct {
	Path       string `json:"path" jsonschema:"File path, relative to the workspace root."`
	OldString  string `json:"old_string" jsonschema:"The exact text to replace, including whitespace. Must occur exactly once unless replace_all is true. Empty only to create a file that does not exist yet."`
	NewString  string `json:"new_string" jsonschema:"The text to put in its place. Must differ from old_string."`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"Replace every occurrence of old_string. Default false."`
}

// NewEditFile returns the edit_file tool.
func NewEditFile() Tool {
	return New(Spec[editFileArgs]{Name: EditFileName, Group: GroupEdit, Kind: KindEdit,
		Doc: editFileDescription, Run: runEditFile, Describe: describeEditFile})
}

func describeEditFile(root string, p editFileArgs) Preview {
	display, abs := previewPath(root, p.Path)
	return Preview{Title: "Edit " + display, Locations: previewLocations(abs, 0)}
}

func runEditFile(ctx context.Context, env *Env, p editFileArgs) (Result, error) {
	oldStr, newStr := p.OldString, p.NewString
	if oldStr == newStr {
		return failure("old_string and new_string are identical, so there is nothing to change"), nil
	}
	abs, fi, err := env.resolveInfo(p.Path)
	if err != nil {
		return failureErr(err), nil
	}
	shown := displayPath(env.Root, abs)
	if isDir(abs, fi) {
		return failure("%s is a directory; give a file path", shown), nil
	}
	content, exists, err := currentContent(ctx, env, abs)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return failure("cannot read %s: %v", shown, err), nil
	}

	if exists && looksBinary(content) {
		return failure("%s looks like a binary file; edit_file only changes text", shown), nil
	}
	fe := edits.FileEdit{Path: abs, Old: content, Label: EditFileName + ": " + shown}
	var out replaceOutcome
	switch {
	case !exists && oldStr == "":
		fe.Create, fe.New = true, newStr
		out = replaceOutcome{content: newStr, count: 1, line: 1}
	case !exists:
		return failure("file not found: %s. To create it, call edit_file with an empty old_string (or use write_file)", shown), nil
	case oldStr == "":
		return failure("old_string is empty but %s already exists; give the text to replace, or use write_file to replace the whole file", shown), nil
	default:
		out, err = replaceText(content, oldStr, newStr, p.ReplaceAll)
		if err != nil {
			return failure("%s: %v", shown, err), nil
		}
		fe.New = out.content
	}

	res, err := applyChange(ctx, env, "Edit "+shown, fe, shown)
	if err != nil || res.IsError {
		return res, err
	}
	var b strings.Builder
	switch {
	case fe.Create:
		fmt.Fprintf(&b, "Created %s.", shown)
	case out.count > 1:
		fmt.Fprintf(&b, "Edited %s: replaced %d occurrences.", shown, out.count)
	case out.fuzzy:
		fmt.Fprintf(&b, "Edited %s at line %d. old_string did not match exactly; it matched once when whitespace is ignored, and that place was replaced (keeping the file's indentation).", shown, out.line)
	default:
		fmt.Fprintf(&b, "Edited %s at line %d.", shown, out.line)
	}
	if out.count == 1 && !fe.Create {
		b.WriteString(" The region now reads:\n")
		b.WriteString(excerpt(out.content, out.line, strings.Count(newStr, "\n")+1))
	}
	res.Output = b.String()
	res.Locations = []Location{{Path: abs, Line: out.line}}
	return res, nil
}

// excerpt numbers lines [line-ctx, line+n+ctx) of content, as read_file would.
func excerpt(content string, line, n int) string {
	lines := splitLines(content)
	from := max(line-1-editContextLines, 0)
	to := min(line-1+n+editContextLines, len(lines))
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, lines[i])
	}
	return b.String()
}
