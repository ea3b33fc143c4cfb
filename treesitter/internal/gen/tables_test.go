package main

import (
	"strings"
	"testing"
)

const fakeParser = `#include "parser.h"

static const char * const ts_symbol_names[] = {
  [0] = "end",
};

static const uint16_t ts_small_parse_table[] = {
  [0] = 1, 2,
  3,
};

static const TSStateId ts_primary_state_ids[STATE_COUNT] = {
  [0] = 0,
};

static bool ts_lex(TSLexer *lexer, TSStateId state) {
  return false;
}
`

func TestFindTablesSkipsPointersAndCode(t *testing.T) {
	ts, err := findTables(strings.Split(fakeParser, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range ts {
		names = append(names, tb.name)
	}
	if got := strings.Join(names, " "); got != "ts_small_parse_table ts_primary_state_ids" {
		t.Errorf("tables = %s", got)
	}
}

func TestRewriteDeclaresWithoutInitializer(t *testing.T) {
	lines := strings.Split(fakeParser, "\n")
	ts, err := findTables(lines)
	if err != nil {
		t.Fatal(err)
	}
	got := rewrite(lines, ts, []int{3, 1}, "tandem_x_tables", "/* header */")
	for _, want := range []string{
		"/* header */\n#include \"parser.h\"\n",
		"\"end\",\n};\n\nstatic uint16_t ts_small_parse_table[3];\n\nstatic TSStateId ts_primary_state_ids[STATE_COUNT];\n\nstatic bool ts_lex(",
		"case 0: *size = sizeof(ts_small_parse_table); return (void *)ts_small_parse_table;\n",
		"case 1: *size = sizeof(ts_primary_state_ids); return (void *)ts_primary_state_ids;\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten source lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "[0] = 1, 2") {
		t.Errorf("an initializer survived:\n%s", got)
	}
}

func TestFindTablesNeedsClosingBrace(t *testing.T) {
	if _, err := findTables([]string{"static const uint16_t ts_x[] = {", "  1,"}); err == nil {
		t.Error("an unterminated table was accepted")
	}
	if _, err := findTables([]string{"int main(void) { return 0; }"}); err == nil {
		t.Error("a source without tables was accepted")
	}
}
