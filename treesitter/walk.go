package treesitter

import (
	"bytes"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
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
}

// rule turns one node type into a definition.
type rule struct {
	kind Kind
	// memberKind replaces kind inside another definition (function -> method).
	memberKind Kind
	// name finds the node naming the definition; nil means the "name" field.
	name func(w *walker, n *sitter.Node) *sitter.Node
	// body is the field holding members: "" = none, "." = the node's own children.
	body string
	// flat containers (namespaces, modules) do not deepen their members.
	flat bool
	// emit replaces the default handling for node types that declare
	// several names or need their scope computed.
	emit func(w *walker, n *sitter.Node, sc scope)
}

type scope struct {
	parent string
	depth  int
	// inType is set inside a class, struct, trait or impl (not a namespace
	// or module): there a function is a method and a variable a field.
	inType bool
}

// maxDepth bounds how far into nested classes the walk goes.
const maxDepth = 3

type walker struct {
	spec *spec
	src  []byte
	defs []Definition
	free []*sitter.TreeCursor // cursors to reuse: a new one costs a finalizer
}

// cursor returns a cursor on n; hand it back with release.
func (w *walker) cursor(n *sitter.Node) *sitter.TreeCursor {
	if k := len(w.free); k > 0 {
		c := w.free[k-1]
		w.free = w.free[:k-1]
		c.Reset(n)
		return c
	}
	return sitter.NewTreeCursor(n)
}

func (w *walker) release(c *sitter.TreeCursor) { w.free = append(w.free, c) }

// close frees the walker's cursors.
func (w *walker) close() {
	for _, c := range w.free {
		c.Close()
	}
	w.free = nil
}

func (w *walker) children(n *sitter.Node, sc scope) {
	if n == nil || n.ChildCount() == 0 {
		return
	}
	// A cursor steps siblings in O(1); NamedChild(i) rescans from the start.
	c := w.cursor(n)
	defer w.release(c)
	if !c.GoToFirstChild() {
		return
	}
	for {
		if ch := c.CurrentNode(); ch.IsNamed() {
			w.visit(ch, sc)
		}
		if !c.GoToNextSibling() {
			return
		}
	}
}

func (w *walker) visit(n *sitter.Node, sc scope) {
	t := n.Type()
	r, ok := w.spec.rules[t]
	if !ok {
		if w.spec.transparent[t] {
			w.children(n, sc)
		}
		return
	}
	if r.emit != nil {
		r.emit(w, n, sc)
		return
	}
	var nameNode *sitter.Node
	if r.name != nil {
		nameNode = r.name(w, n)
	} else {
		nameNode = n.ChildByFieldName("name")
	}
	if nameNode == nil {
		return
	}
	kind := r.kind
	if sc.inType && r.memberKind != "" {
		kind = r.memberKind
	}
	name := w.text(nameNode)
	w.add(n, nameNode, name, kind, sc)
	if r.body == "" {
		return
	}
	body := n
	if r.body != "." {
		body = n.ChildByFieldName(r.body)
	}
	w.members(body, r.flat, name, sc)
}

// members walks a container's body with the container as parent.
func (w *walker) members(body *sitter.Node, flat bool, name string, sc scope) {
	if body == nil {
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
func (w *walker) add(n, nameNode *sitter.Node, name string, kind Kind, sc scope) *Definition {
	if name == "" {
		return nil
	}
	start, end := lines(n)
	w.defs = append(w.defs, Definition{
		Name:      name,
		Kind:      kind,
		Start:     start,
		End:       end,
		Signature: w.lineAt(nameNode.StartByte()),
		Parent:    sc.parent,
		Depth:     sc.depth,
	})
	return &w.defs[len(w.defs)-1]
}

// lines returns n's 1-based inclusive line range. A node ending right after a
// newline (column 0) ends on the previous line.
func lines(n *sitter.Node) (int, int) {
	s, e := n.StartPoint(), n.EndPoint()
	start, end := int(s.Row)+1, int(e.Row)+1
	if e.Column == 0 && e.Row > s.Row {
		end--
	}
	return start, end
}

// text is a node's source, made valid UTF-8 and kept to one line.
func (w *walker) text(n *sitter.Node) string {
	s, e := n.StartByte(), n.EndByte()
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

// fieldChildren returns every child of n under field (ChildByFieldName
// returns only the first, so `a, b = 1, 2` would lose b).
func (w *walker) fieldChildren(n *sitter.Node, field string) []*sitter.Node {
	var out []*sitter.Node
	c := w.cursor(n)
	defer w.release(c)
	if !c.GoToFirstChild() {
		return nil
	}
	for {
		if c.CurrentFieldName() == field {
			out = append(out, c.CurrentNode())
		}
		if !c.GoToNextSibling() {
			return out
		}
	}
}

// namedChildren returns n's named children in order.
func (w *walker) namedChildren(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	var out []*sitter.Node
	c := w.cursor(n)
	defer w.release(c)
	if !c.GoToFirstChild() {
		return nil
	}
	for {
		if ch := c.CurrentNode(); ch.IsNamed() {
			out = append(out, ch)
		}
		if !c.GoToNextSibling() {
			return out
		}
	}
}

// firstOfType returns n's first named child whose type is one of types.
func (w *walker) firstOfType(n *sitter.Node, types ...string) *sitter.Node {
	for _, c := range w.namedChildren(n) {
		for _, t := range types {
			if c.Type() == t {
				return c
			}
		}
	}
	return nil
}

// byType returns a name finder picking the first child of the given types.
func byType(types ...string) func(*walker, *sitter.Node) *sitter.Node {
	return func(w *walker, n *sitter.Node) *sitter.Node { return w.firstOfType(n, types...) }
}

// byField returns a name finder reading the given field.
func byField(field string) func(*walker, *sitter.Node) *sitter.Node {
	return func(w *walker, n *sitter.Node) *sitter.Node { return n.ChildByFieldName(field) }
}

// group marks defs[from:] as one declaration spanning n, when it named more than one thing.
// Members the declaration's definitions brought along (struct fields) are
// not part of the group.
func (w *walker) group(n *sitter.Node, from int) {
	if len(w.defs)-from < 2 {
		return
	}
	depth := w.defs[from].Depth
	count := 0
	for _, d := range w.defs[from:] {
		if d.Depth == depth {
			count++
		}
	}
	if count < 2 {
		return
	}
	start, end := lines(n)
	for i := from; i < len(w.defs); i++ {
		if w.defs[i].Depth == depth {
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
