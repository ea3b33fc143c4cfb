package treesitter

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// A spec describes how to find one language's definitions by walking the
// top of the tree: only declarations and the bodies of classes, impls,
// namespaces and the like are visited, never function bodies. The issue
// measured a query cursor (which visits every node) at 4-5x the cost of this
// walk, so every language uses a spec and no query.
type spec struct {
	rules map[string]rule
	// transparent node types are walked through without adding a scope:
	// export statements, decorators, preprocessor conditionals, templates.
	transparent map[string]bool
	// post, if set, tidies the walk's result (drops C prototypes of
	// functions the same file defines).
	post func([]Definition) []Definition
	// parseAs, if set, turns the source into what the grammar is given to
	// parse; it must keep every byte offset. The walk reads the original.
	parseAs func([]byte) []byte
}

// rule turns one node type into a definition.
type rule struct {
	kind Kind
	// memberKind replaces kind inside another definition (function -> method).
	memberKind Kind
	// name finds the node naming the definition; nil means the "name" field.
	name func(w *walker, n node) node
	// body is the field holding members: "" = none, "." = the node's own children.
	body string
	// flat containers (namespaces, modules) do not deepen their members.
	flat bool
	// emit replaces the default handling for node types that declare
	// several names or need their scope computed.
	emit func(w *walker, n node, sc scope)
}

type scope struct {
	parent string
	depth  int
	// inType is set inside a class, struct, trait or impl (not a namespace
	// or module): there a function is a method and a variable a field.
	inType bool
}

// errorSymbol is the symbol tree-sitter gives ERROR nodes in every grammar.
const errorSymbol = 0xFFFF

// maxDepth bounds how far into nested classes the walk goes.
const maxDepth = 3

type walker struct {
	tab  *grammarTables
	src  []byte
	defs []Definition
	cur  *cursor
	// buf is a stack of children lists: each call appends its node's
	// children and truncates back when done, so nested calls share it.
	buf []node
}

// typ is n's node type, as the grammar names it.
func (w *walker) typ(n node) string {
	if n.null() || int(n.symbol) >= len(w.tab.names) {
		return ""
	}
	return w.tab.names[n.symbol]
}

// field returns n's first child under the named field, or the zero node.
func (w *walker) field(n node, name string) node {
	return fieldChild(n, w.tab.fields[name])
}

// child returns n's i-th child, named or not.
func (w *walker) child(n node, i int) node { return childAt(n, i) }

// each calls fn for n's children (only the named ones if namedOnly) in
// order, stopping when fn returns false.
func (w *walker) each(n node, namedOnly bool, fn func(node) bool) {
	start := len(w.buf)
	w.buf = w.cur.children(n, namedOnly, w.buf)
	kids := w.buf[start:]
	defer func() { w.buf = w.buf[:start] }()
	for _, ch := range kids {
		if !fn(ch) {
			return
		}
	}
}

func (w *walker) children(n node, sc scope) {
	w.each(n, true, func(ch node) bool {
		w.visit(ch, sc)
		return true
	})
}

func (w *walker) visit(n node, sc scope) {
	if n.null() {
		return
	}
	if n.symbol == errorSymbol {
		// What tree-sitter could not fit (a C header's `extern "C" {`
		// behind #ifdef __cplusplus) becomes an ERROR node around the
		// declarations it recovered; walk through it so a file with one
		// odd line is not a file with no definitions.
		w.children(n, sc)
		return
	}
	if int(n.symbol) >= len(w.tab.rules) {
		return
	}
	r := w.tab.rules[n.symbol]
	if r == nil {
		if w.tab.transparent[n.symbol] {
			w.children(n, sc)
		}
		return
	}
	if r.emit != nil {
		r.emit(w, n, sc)
		return
	}
	var nameNode node
	if r.name != nil {
		nameNode = r.name(w, n)
	} else {
		nameNode = w.field(n, "name")
	}
	if nameNode.null() {
		return
	}
	kind := r.kind
	if sc.inType && r.memberKind != "" {
		kind = r.memberKind
	}
	name := w.text(nameNode)
	if r.body == "" {
		w.add(n, nameNode, name, kind, sc)
		return
	}
	body := n
	if r.body != "." {
		body = w.field(n, r.body)
	}
	w.addContainer(n, nameNode, name, kind, sc, body, r.flat)
}

// addContainer records a definition that has members in body, then walks
// them. An enum's constants are grouped over body's lines, so a long enum
// collapses to one line in a listing.
func (w *walker) addContainer(n, nameNode node, name string, kind Kind, sc scope, body node, flat bool) {
	if w.add(n, nameNode, name, kind, sc) == nil {
		return
	}
	at := len(w.defs) - 1
	w.members(body, flat, name, sc)
	if kind == KindEnum {
		w.groupEnumerators(body, at)
	}
}

// groupEnumerators marks the constants added after the enum at defs[at] as
// one group spanning body.
func (w *walker) groupEnumerators(body node, at int) {
	w.markGroup(body, at+1, w.defs[at].Depth+1, KindConstant)
}

// members walks a container's body with the container as parent.
func (w *walker) members(body node, flat bool, name string, sc scope) {
	if body.null() {
		return
	}
	inner := scope{parent: joinScope(sc.parent, name), depth: sc.depth + 1, inType: true}
	if flat {
		inner.depth, inner.inType = sc.depth, sc.inType
	}
	if inner.depth > maxDepth {
		return
	}
	w.children(body, inner)
}

func joinScope(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// add records a definition spanning n, named by nameNode.
func (w *walker) add(n, nameNode node, name string, kind Kind, sc scope) *Definition {
	if name == "" {
		return nil
	}
	start, end := lines(n)
	w.defs = append(w.defs, Definition{
		Name:      name,
		Kind:      kind,
		Start:     start,
		End:       end,
		Signature: w.lineAt(uint32(nameNode.start_byte)),
		Parent:    sc.parent,
		Depth:     sc.depth,
	})
	return &w.defs[len(w.defs)-1]
}

// lines returns n's 1-based inclusive line range. A node ending right after a
// newline (column 0) ends on the previous line.
func lines(n node) (int, int) {
	start, end := int(n.start_row)+1, int(n.end_row)+1
	if n.end_column == 0 && n.end_row > n.start_row {
		end--
	}
	return start, end
}

// text is a node's source, made valid UTF-8 and kept to one line.
func (w *walker) text(n node) string {
	if n.null() {
		return ""
	}
	s, e := n.start_byte, n.end_byte
	if int(e) > len(w.src) || s > e {
		return ""
	}
	b := w.src[s:e]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return clean(b, MaxSignature)
}

// lineAt returns the trimmed source line holding byte offset off.
func (w *walker) lineAt(off uint32) string {
	if int(off) > len(w.src) {
		return ""
	}
	start := bytes.LastIndexByte(w.src[:off], '\n') + 1
	end := bytes.IndexByte(w.src[off:], '\n')
	if end < 0 {
		end = len(w.src)
	} else {
		end += int(off)
	}
	return clean(w.src[start:end], MaxSignature)
}

// clean trims b, replaces invalid UTF-8 and cuts the result at max bytes on
// a rune boundary, so what reaches a model or a JSON encoder is always valid
// text of bounded size. (Replacing first matters: U+FFFD is three bytes.)
func clean(b []byte, max int) string {
	b = bytes.TrimSpace(b)
	if len(b) > 4*max {
		b = b[:4*max] // bound the work on minified lines
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimSpace(s[:cut])
	}
	return s
}

// fieldChildren returns every child of n under field (field returns only
// the first, so `a, b = 1, 2` would lose b).
func (w *walker) fieldChildren(n node, field string) []node {
	id := w.tab.fields[field]
	if id == 0 {
		return nil
	}
	var out []node
	// Only named children: a grammar's field may span a separated list
	// (Go's `const a, b = …`), and the commas between carry the field too.
	w.each(n, true, func(ch node) bool {
		if uint16(ch.field) == id {
			out = append(out, ch)
		}
		return true
	})
	return out
}

// namedChildren returns n's named children in order.
func (w *walker) namedChildren(n node) []node {
	var out []node
	w.each(n, true, func(ch node) bool {
		out = append(out, ch)
		return true
	})
	return out
}

// firstOfType returns n's first named child whose type is one of types.
func (w *walker) firstOfType(n node, types ...string) node {
	var found node
	w.each(n, true, func(ch node) bool {
		t := w.typ(ch)
		for _, want := range types {
			if t == want {
				found = ch
				return false
			}
		}
		return true
	})
	return found
}

// byType returns a name finder picking the first child of the given types.
func byType(types ...string) func(*walker, node) node {
	return func(w *walker, n node) node { return w.firstOfType(n, types...) }
}

// byField returns a name finder reading the given field.
func byField(field string) func(*walker, node) node {
	return func(w *walker, n node) node { return w.field(n, field) }
}

// group marks defs[from:] as one declaration spanning n, when it named more than one thing.
// Members the declaration's definitions brought along (struct fields) are
// not part of the group.
func (w *walker) group(n node, from int) {
	if from < len(w.defs) {
		w.markGroup(n, from, w.defs[from].Depth, "")
	}
}

// markGroup gives the definitions in defs[from:] at depth (and of kind,
// unless kind is empty) span's lines as their group, when there are at
// least two of them.
func (w *walker) markGroup(span node, from, depth int, kind Kind) {
	in := func(d *Definition) bool { return d.Depth == depth && (kind == "" || d.Kind == kind) }
	count := 0
	for i := from; i < len(w.defs); i++ {
		if in(&w.defs[i]) {
			count++
		}
	}
	if count < 2 || span.null() {
		return
	}
	start, end := lines(span)
	for i := from; i < len(w.defs); i++ {
		if in(&w.defs[i]) {
			w.defs[i].Group, w.defs[i].GroupEnd = start, end
		}
	}
}

func set(types ...string) map[string]bool {
	m := make(map[string]bool, len(types))
	for _, t := range types {
		m[t] = true
	}
	return m
}
