package treesitter

// The walk reads trees through tree-sitter's C API directly, not through the
// bindings' Node: every node the bindings hand out is a Go allocation stored
// in a per-tree map, its type name is a fresh Go string, and each step is
// its own cgo call. Profiling a cold index of the Go tree put that
// bookkeeping at about a tenth of all CPU. Here a node is a plain value that
// carries its symbol and position, and one cgo call returns all the children
// of a node. The C functions are the runtime the bindings compile; only
// their declarations are repeated here, matching tree-sitter's api.h at the
// pinned bindings version (TestNodeLayout checks them against the bindings).

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The pointers inside nodes are declared as integers (the same in the C
// ABI): to Go a node is then plain data, which cgo need not scan for Go
// pointers on every call and the garbage collector need not trace.
typedef struct { uint32_t context[4]; uintptr_t id; uintptr_t tree; } TSNode;
typedef struct { uintptr_t tree; uintptr_t id; uint32_t context[3]; } TSTreeCursor;
typedef struct { uint32_t row; uint32_t column; } TSPoint;

uint16_t ts_node_symbol(TSNode);
bool ts_node_is_named(TSNode);
uint32_t ts_node_start_byte(TSNode);
uint32_t ts_node_end_byte(TSNode);
TSPoint ts_node_start_point(TSNode);
TSPoint ts_node_end_point(TSNode);
TSNode ts_node_child(TSNode, uint32_t);
TSNode ts_node_child_by_field_id(TSNode, uint16_t);
TSTreeCursor ts_tree_cursor_new(TSNode);
void ts_tree_cursor_delete(TSTreeCursor *);
void ts_tree_cursor_reset(TSTreeCursor *, TSNode);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
bool ts_tree_cursor_goto_parent(TSTreeCursor *);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *);

// tandem_node is a node with what the walk reads of it, fetched at once.
typedef struct {
	TSNode node;
	uint32_t start_byte, end_byte;
	uint32_t start_row, end_row, end_column;
	uint16_t symbol, field;
	bool named;
} tandem_node;

static tandem_node tandem_wrap(TSNode n, uint16_t field) {
	tandem_node t;
	memset(&t, 0, sizeof t);
	if (n.id == 0) return t;
	t.node = n;
	t.start_byte = ts_node_start_byte(n);
	t.end_byte = ts_node_end_byte(n);
	t.start_row = ts_node_start_point(n).row;
	TSPoint e = ts_node_end_point(n);
	t.end_row = e.row;
	t.end_column = e.column;
	t.symbol = ts_node_symbol(n);
	t.named = ts_node_is_named(n);
	t.field = field;
	return t;
}

static tandem_node tandem_field(TSNode n, uint16_t field) {
	return tandem_wrap(ts_node_child_by_field_id(n, field), field);
}

static tandem_node tandem_child(TSNode n, uint32_t i) {
	return tandem_wrap(ts_node_child(n, i), 0);
}

// tandem_children writes up to cap children of n to out (only named ones if
// named_only) and returns how many there are, which may exceed cap.
static uint32_t tandem_children(TSTreeCursor *c, TSNode n, tandem_node *out, uint32_t cap, bool named_only) {
	uint32_t k = 0;
	ts_tree_cursor_reset(c, n);
	if (!ts_tree_cursor_goto_first_child(c)) return 0;
	do {
		TSNode ch = ts_tree_cursor_current_node(c);
		if (named_only && !ts_node_is_named(ch)) continue;
		if (k < cap) out[k] = tandem_wrap(ch, ts_tree_cursor_current_field_id(c));
		k++;
	} while (ts_tree_cursor_goto_next_sibling(c));
	return k;
}

// tandem_idents walks the whole tree under root in one call and writes the
// byte ranges of nodes whose symbol is marked in want (identifier leaves)
// to out, two words each, up to cap ranges. It returns how many there are,
// which may exceed cap. Matched nodes are not descended into.
static uint32_t tandem_idents(TSTreeCursor *c, TSNode root, const uint8_t *want, uint32_t nsym, uint32_t *out, uint32_t cap) {
	uint32_t k = 0;
	ts_tree_cursor_reset(c, root);
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(c);
		uint16_t s = ts_node_symbol(n);
		if (s < nsym && want[s]) {
			if (k < cap) {
				out[2*k] = ts_node_start_byte(n);
				out[2*k+1] = ts_node_end_byte(n);
			}
			k++;
		} else if (ts_tree_cursor_goto_first_child(c)) {
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(c)) {
			if (!ts_tree_cursor_goto_parent(c)) return k;
		}
	}
}

static TSTreeCursor *tandem_cursor_new(TSNode n) {
	TSTreeCursor *c = malloc(sizeof *c);
	if (c != NULL) *c = ts_tree_cursor_new(n);
	return c;
}

static void tandem_cursor_free(TSTreeCursor *c) {
	ts_tree_cursor_delete(c);
	free(c);
}
*/
import "C"

import (
	"slices"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// node is one syntax node; the zero node stands for "none".
type node C.tandem_node

func (n node) null() bool { return n.node.id == 0 }

// isNamed reports a named node (not punctuation or a keyword).
func (n node) isNamed() bool { return bool(n.named) }

func (n node) startRow() int { return int(n.start_row) }

// rootNode converts the bindings' root node to ours. The bindings keep the
// C node as the first field of their Node.
func rootNode(root *sitter.Node) node {
	return node(C.tandem_wrap(*(*C.TSNode)(unsafe.Pointer(root)), 0))
}

// cursor is a C-allocated tree cursor, reused for every children call of a
// walk (each call copies the children out before returning).
type cursor struct{ c *C.TSTreeCursor }

func (c *cursor) close() {
	if c.c != nil {
		C.tandem_cursor_free(c.c)
		c.c = nil
	}
}

// children appends n's children (only named ones if namedOnly) to buf.
func (c *cursor) children(n node, namedOnly bool, buf []node) []node {
	if n.null() {
		return buf
	}
	if c.c == nil {
		c.c = C.tandem_cursor_new(n.node)
		if c.c == nil {
			panic("treesitter: out of C memory for a tree cursor")
		}
	}
	start := len(buf)
	for room := 16; ; {
		buf = slices.Grow(buf, room)
		// buf's spare capacity is Go memory holding no Go pointers, so C may write it.
		out := (*C.tandem_node)(unsafe.Pointer(unsafe.SliceData(buf[start:cap(buf)])))
		k := int(C.tandem_children(c.c, n.node, out, C.uint32_t(cap(buf)-start), C.bool(namedOnly)))
		if k <= cap(buf)-start {
			return buf[:start+k]
		}
		room = k
	}
}

// identRanges appends to buf the [start, end) byte pairs of every node
// under root whose symbol want marks.
func (c *cursor) identRanges(root node, want []uint8, buf []uint32) []uint32 {
	if root.null() || len(want) == 0 {
		return buf[:0]
	}
	if c.c == nil {
		c.c = C.tandem_cursor_new(root.node)
		if c.c == nil {
			panic("treesitter: out of C memory for a tree cursor")
		}
	}
	for room := max(cap(buf)/2, 256); ; {
		buf = slices.Grow(buf[:0], 2*room)
		// buf holds no Go pointers, so C may write it.
		k := int(C.tandem_idents(c.c, root.node, (*C.uint8_t)(unsafe.Pointer(&want[0])), C.uint32_t(len(want)),
			(*C.uint32_t)(unsafe.Pointer(unsafe.SliceData(buf[:cap(buf)]))), C.uint32_t(cap(buf)/2)))
		if k <= cap(buf)/2 {
			return buf[:2*k]
		}
		room = k
	}
}

func fieldChild(n node, field uint16) node {
	if n.null() || field == 0 {
		return node{}
	}
	return node(C.tandem_field(n.node, C.uint16_t(field)))
}

func childAt(n node, i int) node {
	if n.null() || i < 0 {
		return node{}
	}
	return node(C.tandem_child(n.node, C.uint32_t(i)))
}

// grammarTables are a language's symbol names and field ids, read once from
// its grammar.
type grammarTables struct {
	names       []string // by symbol
	fields      map[string]uint16
	rules       []*rule // by symbol; nil for no rule
	transparent []bool  // by symbol
	// idents marks (1) the symbols of identifier leaves, the names a file
	// uses; references are read from them.
	idents []uint8
}

func newGrammarTables(g *sitter.Language, sp *spec) *grammarTables {
	t := &grammarTables{fields: make(map[string]uint16)}
	count := int(g.SymbolCount())
	t.names = make([]string, count)
	t.rules = make([]*rule, count)
	t.transparent = make([]bool, count)
	t.idents = make([]uint8, count)
	for s := range count {
		name := g.SymbolName(sitter.Symbol(s))
		t.names[s] = name
		if r, ok := sp.rules[name]; ok {
			t.rules[s] = &r
		}
		t.transparent[s] = sp.transparent[name]
		if isIdentSymbol(name) && g.SymbolType(sitter.Symbol(s)) == sitter.SymbolTypeRegular {
			t.idents[s] = 1
		}
	}
	// Field ids run from 1 to the grammar's field count.
	for id := 1; id < 1<<16; id++ {
		name := g.FieldName(id)
		if name == "" {
			break
		}
		t.fields[name] = uint16(id)
	}
	return t
}
