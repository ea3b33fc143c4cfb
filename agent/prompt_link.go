package agent

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/internal/filelist"
)

// maxLinkedEntries bounds a linked directory's listing: enough to orient
// the model, small enough never to crowd out the question.
const maxLinkedEntries = 200

// linkedFile is the model content for a resource_link to a local path: the
// file (through the host, so unsaved text counts), only the lines a
// "#L10-20" or "#L10" fragment names, or a directory's listing.
func (s *Session) linkedFile(ctx context.Context, uri string) (llm.Part, error) {
	path, lines, ok := fileURIRange(uri)
	if !ok {
		return llm.Part{}, fmt.Errorf("not a file URI")
	}
	name := s.display(path)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return llm.Part{Type: llm.PartText, Text: dirBlock(name, path)}, nil
	}
	text, err := s.host.ReadFile(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return llm.Part{}, ctx.Err()
		}
		return llm.Part{Type: llm.PartText, Text: fmt.Sprintf("[linked file %s could not be read: %v]", name, err)}, nil
	}
	if lines[0] == 0 {
		return llm.Part{Type: llm.PartText, Text: fileBlock(name, text)}, nil
	}
	all := strings.SplitAfter(text, "\n")
	if all[len(all)-1] == "" {
		all = all[:len(all)-1] // the final newline ends a line, it starts none
	}
	from, to := lines[0], min(lines[1], len(all))
	if from > len(all) {
		return llm.Part{Type: llm.PartText, Text: fmt.Sprintf("[linked lines %d-%d of %s: the file has only %d lines]", lines[0], lines[1], name, len(all))}, nil
	}
	excerpt := strings.TrimSuffix(strings.Join(all[from-1:to], ""), "\n")
	return llm.Part{Type: llm.PartText, Text: fmt.Sprintf("<file path=%q lines=\"%d-%d\">\n%s\n</file>", name, from, to, excerpt)}, nil
}

// fileURIRange parses a file URI and its optional line fragment. lines is
// {0, 0} without one; "#L7" is {7, 7}; a reversed range is put in order.
func fileURIRange(uri string) (path string, lines [2]int, ok bool) {
	path, ok = fileURIPath(uri)
	if !ok {
		return "", lines, false
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", lines, false
	}
	frag, found := strings.CutPrefix(u.Fragment, "L")
	if !found {
		return path, lines, true
	}
	a, b, isRange := strings.Cut(frag, "-")
	b = strings.TrimPrefix(b, "L")
	from, err1 := strconv.Atoi(a)
	to := from
	var err2 error
	if isRange {
		to, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || from < 1 || to < 1 {
		return path, lines, true // not a line fragment: the whole file
	}
	if to < from {
		from, to = to, from
	}
	return path, [2]int{from, to}, true
}

// dirBlock lists a linked directory, one level, folders first.
func dirBlock(name, path string) string {
	entries, err := os.ReadDir(path)
	if err != nil {
		return fmt.Sprintf("[linked directory %s could not be listed: %v]", name, err)
	}
	skip := filelist.SkipDirs()
	var dirs, files []string
	for _, e := range entries {
		switch {
		case e.IsDir() && slices.Contains(skip, e.Name()):
		case e.IsDir():
			dirs = append(dirs, e.Name()+"/")
		default:
			files = append(files, e.Name())
		}
	}
	all := append(dirs, files...)
	var b strings.Builder
	fmt.Fprintf(&b, "<directory path=%q entries=\"%d\">\n", name, len(all))
	for i, n := range all {
		if i == maxLinkedEntries {
			fmt.Fprintf(&b, "… %d more (use list_files)\n", len(all)-i)
			break
		}
		b.WriteString(n + "\n")
	}
	b.WriteString("</directory>")
	return b.String()
}
