package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// ReadFileName is the model-facing name of the read tool.
const ReadFileName = "read_file"

// Limits of one read_file call: the model reads on with offset.
const (
	readMaxLines     = 2000
	readMaxBytes     = 256 << 10
	readMaxLineBytes = 2000 // a minified line must not eat the whole budget
)

//go:embed read_file.md
var readFileDescription string

type readFileArgs struct {
	Path   string `json:"path" jsonschema:"File path, relative to the workspace root (or absolute inside it)."`
	Offset int    `json:"offset,omitempty" jsonschema:"1-based line to start at. Default 1."`
	Limit  int    `json:"limit,omitempty" jsonschema:"Number of lines to read. Default and maximum 2000."`
}

// NewReadFile returns the read_file tool.
func NewReadFile() Tool {
	return New(Spec[readFileArgs]{Name: ReadFileName, Group: GroupRead, Kind: KindRead,
		Doc: readFileDescription, Run: runReadFile, Describe: describeReadFile})
}

func describeReadFile(root string, p readFileArgs) Preview {
	display, abs := previewPath(root, p.Path)
	title := "Read " + display
	start := max(p.Offset, 1)
	switch {
	case p.Offset > 0 && p.Limit > 0:
		title += fmt.Sprintf(":%d-%d", start, start+p.Limit-1)
	case p.Offset > 0:
		title += fmt.Sprintf(":%d", start)
	case p.Limit > 0:
		title += fmt.Sprintf(":1-%d", p.Limit)
	}
	return Preview{Title: title, Locations: previewLocations(abs, start)}
}

func runReadFile(ctx context.Context, env *Env, p readFileArgs) (Result, error) {
	if p.Offset < 0 || p.Limit < 0 {
		return failure("offset and limit must be positive (offset is a 1-based line number)"), nil
	}
	abs, fi, err := env.resolveInfo(p.Path)
	if err != nil {
		return failureErr(err), nil
	}
	shown := displayPath(env.Root, abs)
	if isDir(abs, fi) {
		return failure("%s is a directory, not a file; use list_files to see what it contains", shown), nil
	}
	content, err := env.Host.ReadFile(ctx, abs)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if errors.Is(err, fs.ErrNotExist) {
			return failure("file not found: %s (resolved to %s); check the name with list_files or search_files", shown, abs), nil
		}
		return failure("cannot read %s: %v", shown, err), nil
	}
	if looksBinary(content) {
		return failure("%s looks like a binary file (%d bytes); read_file only shows text", shown, len(content)), nil
	}
	out, err := numberLines(content, p.Offset, p.Limit)
	if err != nil {
		return failure("%s: %v", shown, err), nil
	}
	start := max(p.Offset, 1)
	return Result{
		Output:    out,
		Locations: []Location{{Path: abs, Line: start}},
		Touched:   []string{abs},
	}, nil
}

// numberLines renders lines [offset, offset+limit) like `cat -n`, within the
// read caps, and ends with a note telling the model how to read on.
func numberLines(content string, offset, limit int) (string, error) {
	lines := splitLines(content)
	if len(lines) == 0 {
		return "(the file is empty)", nil
	}
	if offset <= 0 {
		offset = 1
	}
	if limit <= 0 || limit > readMaxLines {
		limit = readMaxLines
	}
	if offset > len(lines) {
		return "", fmt.Errorf("offset %d is past the end of the file, which has %d lines", offset, len(lines))
	}
	end := min(offset-1+limit, len(lines)) // exclusive, 0-based
	var b strings.Builder
	width := max(len(strconv.Itoa(end)), 6)
	// Every line once, its number padded like %*d: no formatting per line
	// (a read is the commonest tool step).
	b.Grow(min(len(content)+(end-offset+1)*(width+2), readMaxBytes+256))
	var num [20]byte
	next := 0
	for i := offset - 1; i < end; i++ {
		line := strings.ToValidUTF8(lines[i], "\uFFFD")
		if cut, ok := truncateRunes(line, readMaxLineBytes); ok {
			line = fmt.Sprintf("%s… [line cut, %d more bytes]", cut, len(line)-len(cut))
		}
		digits := strconv.AppendInt(num[:0], int64(i+1), 10)
		pad := max(width-len(digits), 0)
		if b.Len()+pad+len(digits)+1+len(line)+1 > readMaxBytes && i > offset-1 {
			next = i + 1
			break
		}
		for range pad {
			b.WriteByte(' ')
		}
		b.Write(digits)
		b.WriteByte('\t')
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if next == 0 && end < len(lines) {
		next = end + 1
	}
	if next > 0 {
		fmt.Fprintf(&b, "\n[Showed lines %d-%d of %d. To read on, call read_file with offset=%d.]\n",
			offset, next-1, len(lines), next)
	}
	return b.String(), nil
}
