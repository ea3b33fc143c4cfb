package codeindex

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tandemhq/tandem/treesitter"
)

// ListOptions shape a definitions listing.
type ListOptions struct {
	// MaxDepth leaves out definitions nested deeper (0 = top level only,
	// 1 = and their members); negative means everything.
	MaxDepth int
	// SkipFields leaves out fields and properties, which crowd a listing of
	// many files.
	SkipFields bool
	// MaxLines caps the definition lines written; 0 means no cap. Files
	// that no longer fit are counted in a closing note.
	MaxLines int
	// PathPrefix is put before each file's path in headers (a directory
	// ending in "/"), for an index rooted below the directory paths are
	// shown relative to.
	PathPrefix string
}

// collapseAt is the size from which a run of constants or variables declared
// together is shown as one line.
const collapseAt = 5

// collapseNames is how many names a collapsed line shows.
const collapseNames = 3

// WriteListing writes files in the format the model and `tandem defs` read:
//
//	# pkg/shapes.go (42 lines, 5 defs)
//	9-11 | func NewCircle(r float64) Circle
//	13 | const Pi = 3.14159
//
// Lines are 1-based; a range collapses to one number when it starts and ends
// on the same line. Members are indented under their parent. A definition
// whose source line is the one just shown (the members of a one-line enum,
// `var a, b = 1, 2`) is not shown again.
func WriteListing(w io.Writer, files []*File, opts ListOptions) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	written, shownFiles, empty, failed := 0, 0, 0, 0
	leftFiles, leftDefs := 0, 0
	var line []byte
	for _, f := range files {
		if f.Err != "" {
			failed++
			if len(files) == 1 {
				fmt.Fprintf(bw, "# %s%s (%d lines): %s\n", opts.PathPrefix, f.Path, f.Lines, f.Err)
			}
			continue
		}
		defs := visible(f.Defs, opts)
		if len(defs) == 0 {
			empty++
			if len(files) == 1 {
				fmt.Fprintf(bw, "# %s%s (%d lines, 0 defs)\n", opts.PathPrefix, f.Path, f.Lines)
			}
			continue
		}
		if opts.MaxLines > 0 && written > 0 && written+len(defs) > opts.MaxLines {
			leftFiles++
			leftDefs += len(defs)
			continue
		}
		if shownFiles > 0 {
			bw.WriteByte('\n')
		}
		shownFiles++
		fmt.Fprintf(bw, "# %s%s (%d lines, %d defs)\n", opts.PathPrefix, f.Path, f.Lines, len(f.Defs))
		shown := -1 // index in defs of the last definition shown on its own line
		for i := 0; i < len(defs); {
			d := defs[i]
			if shown >= 0 && d.Start == defs[shown].Start && d.Signature == defs[shown].Signature {
				i++
				continue
			}
			if n := groupRun(defs[i:]); n >= collapseAt {
				shown = -1
				line = appendRange(line[:0], d.Group, d.GroupEnd)
				line = append(line, " | "...)
				line = appendIndent(line, d.Depth)
				line = append(line, plural(d.Kind)...)
				line = append(line, ": "...)
				for k := 0; k < collapseNames; k++ {
					line = append(line, defs[i+k].Name...)
					line = append(line, ", "...)
				}
				line = append(line, '+')
				line = strconv.AppendInt(line, int64(n-collapseNames), 10)
				i += n
			} else {
				line = appendRange(line[:0], d.Start, d.End)
				line = append(line, " | "...)
				line = appendIndent(line, d.Depth)
				line = append(line, d.Signature...)
				shown = i
				i++
			}
			line = append(line, '\n')
			bw.Write(line)
			written++
		}
	}
	if len(files) > 1 {
		var notes []string
		if leftFiles > 0 {
			notes = append(notes, fmt.Sprintf("%s with %s not shown (limit %d lines); list a subdirectory or a file to see them", count(leftFiles, "more file"), count(leftDefs, "definition"), opts.MaxLines))
		}
		if empty > 0 {
			notes = append(notes, count(empty, "file")+" without definitions")
		}
		if failed > 0 {
			notes = append(notes, count(failed, "file")+" not indexed (too large, binary or unreadable)")
		}
		if shownFiles == 0 && len(notes) == 0 {
			notes = append(notes, "no source files")
		}
		if len(notes) > 0 {
			if shownFiles > 0 {
				bw.WriteByte('\n')
			}
			fmt.Fprintf(bw, "(%s)\n", strings.Join(notes, "; "))
		}
	} else if len(files) == 0 {
		bw.WriteString("(no source files)\n")
	}
	return bw.Flush()
}

// visible filters defs by opts; it returns defs itself when nothing is dropped.
func visible(defs []treesitter.Definition, opts ListOptions) []treesitter.Definition {
	keep := func(d *treesitter.Definition) bool {
		return (opts.MaxDepth < 0 || d.Depth <= opts.MaxDepth) && !(opts.SkipFields && d.Kind == treesitter.KindField)
	}
	for i := range defs {
		if !keep(&defs[i]) {
			out := append([]treesitter.Definition(nil), defs[:i]...)
			for j := i + 1; j < len(defs); j++ {
				if keep(&defs[j]) {
					out = append(out, defs[j])
				}
			}
			return out
		}
	}
	return defs
}

// groupRun counts the leading definitions declared together with defs[0]
// (same group, same kind); 0 when defs[0] is not in a group.
func groupRun(defs []treesitter.Definition) int {
	d := defs[0]
	if d.Group == 0 || (d.Kind != treesitter.KindConstant && d.Kind != treesitter.KindVariable && d.Kind != treesitter.KindField) {
		return 0
	}
	n := 1
	for n < len(defs) && defs[n].Group == d.Group && defs[n].Kind == d.Kind && defs[n].Depth == d.Depth {
		n++
	}
	return n
}

func appendRange(b []byte, start, end int) []byte {
	b = strconv.AppendInt(b, int64(start), 10)
	if end != start {
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(end), 10)
	}
	return b
}

func appendIndent(b []byte, depth int) []byte {
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

func plural(k treesitter.Kind) string {
	switch k {
	case treesitter.KindConstant:
		return "constants"
	case treesitter.KindVariable:
		return "variables"
	case treesitter.KindField:
		return "fields"
	}
	return string(k)
}

// count writes "1 file", "2 files".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
