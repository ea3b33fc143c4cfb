package main

import (
	"fmt"
	"regexp"
	"strings"
)

// table is one static const array of a parser.c whose initializer the
// generator moves out.
type table struct {
	name, typ string
	dims      string // as written, e.g. "[]" or "[STATE_COUNT]"
	start     int    // first line of the definition (0-based)
	end       int    // its closing "};" line
}

// tableDef matches the first line of a table definition as tree-sitter's
// generator writes it: `static const uint16_t ts_small_parse_table[] = {`.
var tableDef = regexp.MustCompile(`^static const (\w+) (\w+)((?:\[[^\]]*\])+) = \{$`)

// plainTypes are the element types that hold no pointers, so their bytes
// mean the same in any process. Tables of strings (symbol and field names)
// hold addresses the loader relocates; they stay in the C source.
var plainTypes = map[string]bool{
	"bool": true, "uint16_t": true, "uint32_t": true, "TSSymbol": true, "TSStateId": true,
	"TSLexMode": true, "TSParseActionEntry": true, "TSSymbolMetadata": true,
	"TSFieldMapSlice": true, "TSFieldMapEntry": true,
}

// findTables returns the pointer-free tables of a parser.c split into lines.
func findTables(lines []string) ([]table, error) {
	var ts []table
	for i := 0; i < len(lines); i++ {
		m := tableDef.FindStringSubmatch(lines[i])
		if m == nil || !plainTypes[m[1]] {
			continue
		}
		t := table{typ: m[1], name: m[2], dims: m[3], start: i, end: -1}
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == "};" {
				t.end = j
				break
			}
		}
		if t.end < 0 {
			return nil, fmt.Errorf("table %s at line %d has no closing };", t.name, i+1)
		}
		ts = append(ts, t)
		i = t.end
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no tables found; has tree-sitter's output format changed?")
	}
	return ts, nil
}

// rewrite returns parser.c with each table's definition replaced by a
// declaration without initializer and no const, so it lands in .bss,
// followed by the function that numbers the tables for Go. counts gives the
// first dimension of each table written with "[]", which only the
// initializer determined.
func rewrite(lines []string, ts []table, counts []int, fn, header string) string {
	out := []string{header}
	next := 0
	for i, t := range ts {
		out = append(out, lines[next:t.start]...)
		dims := t.dims
		if strings.HasPrefix(dims, "[]") {
			dims = fmt.Sprintf("[%d]%s", counts[i], dims[2:])
		}
		out = append(out, fmt.Sprintf("static %s %s%s;", t.typ, t.name, dims))
		next = t.end + 1
	}
	out = append(out, lines[next:]...)
	var b strings.Builder
	b.WriteString(strings.TrimRight(strings.Join(out, "\n"), "\n"))
	b.WriteString("\n\n/* Added by tandem's generator: the tables above, numbered for Go to fill. */\n")
	fmt.Fprintf(&b, "void *%s(int i, size_t *size) {\n  switch (i) {\n", fn)
	for i, t := range ts {
		fmt.Fprintf(&b, "  case %d: *size = sizeof(%s); return (void *)%s;\n", i, t.name, t.name)
	}
	b.WriteString("  }\n  *size = 0;\n  return NULL;\n}\n")
	return b.String()
}
