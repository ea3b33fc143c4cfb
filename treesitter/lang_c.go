package treesitter

import sitter "github.com/smacker/go-tree-sitter"

// C and C++ share one walker; C++ adds classes, namespaces and templates.
func cRules(cpp bool) map[string]rule {
	r := map[string]rule{
		"function_definition":  {emit: func(w *walker, n *sitter.Node, sc scope) { cFunction(w, n, sc, cpp) }},
		"declaration":          {emit: func(w *walker, n *sitter.Node, sc scope) { cDeclaration(w, n, sc, cpp) }},
		"field_declaration":    {emit: func(w *walker, n *sitter.Node, sc scope) { cDeclaration(w, n, sc, cpp) }},
		"type_definition":      {emit: cTypedef},
		"struct_specifier":     {emit: cRecord(KindStruct)},
		"union_specifier":      {emit: cRecord(KindStruct)},
		"enum_specifier":       {emit: cRecord(KindEnum)},
		"preproc_def":          {kind: KindConstant},
		"preproc_function_def": {kind: KindMacro},
	}
	if cpp {
		r["class_specifier"] = rule{emit: cRecord(KindClass)}
		r["namespace_definition"] = rule{kind: KindNamespace, body: "body", flat: true}
		r["alias_declaration"] = rule{kind: KindType}
		r["concept_definition"] = rule{kind: KindType}
	}
	return r
}

var cTransparent = set("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
	"preproc_elifdef", "linkage_specification", "declaration_list")

var cSpec = &spec{rules: cRules(false), transparent: cTransparent, post: dropDefinedPrototypes}

var cppSpec = &spec{
	rules:       cRules(true),
	transparent: union(cTransparent, set("template_declaration", "field_declaration_list")),
	post:        dropDefinedPrototypes,
}

func union(a, b map[string]bool) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// cDeclarator unwraps pointers, arrays and parentheses down to the declared
// name; isFunc reports whether the name declares a function (not a pointer to one).
func cDeclarator(w *walker, d *sitter.Node) (name *sitter.Node, isFunc bool) {
	for d != nil {
		switch d.Type() {
		case "function_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner != nil && inner.Type() != "parenthesized_declarator" {
				isFunc = true
			}
			d = inner
		case "pointer_declarator", "array_declarator", "init_declarator", "attributed_declarator":
			d = d.ChildByFieldName("declarator")
		case "parenthesized_declarator", "reference_declarator":
			d = w.firstOfType(d, "identifier", "field_identifier", "pointer_declarator",
				"function_declarator", "array_declarator", "parenthesized_declarator", "qualified_identifier")
		default:
			return d, isFunc
		}
	}
	return nil, false
}

// cName splits a C++ qualified name (Foo::bar) into the name and its scope.
func cName(w *walker, n *sitter.Node) (name *sitter.Node, scopeName string) {
	for n != nil && n.Type() == "qualified_identifier" {
		if s := n.ChildByFieldName("scope"); s != nil {
			if s.Type() == "template_type" { // Shape<T>::area belongs to Shape
				if tn := s.ChildByFieldName("name"); tn != nil {
					s = tn
				}
			}
			scopeName = joinQualified(scopeName, w.text(s))
		}
		n = n.ChildByFieldName("name")
	}
	return n, scopeName
}

func joinQualified(a, b string) string {
	if a == "" {
		return b
	}
	return a + "::" + b
}

func cFunction(w *walker, n *sitter.Node, sc scope, cpp bool) {
	d, _ := cDeclarator(w, n.ChildByFieldName("declarator"))
	name, qual := cName(w, d)
	if name == nil {
		return
	}
	kind := KindFunction
	if sc.inType {
		kind = KindMethod
	}
	if qual != "" {
		kind = KindMethod
		sc = scope{parent: joinScope(sc.parent, qual), depth: sc.depth + 1, inType: true}
	}
	w.add(n, name, w.text(name), kind, sc)
}

// cDeclaration records globals, prototypes and struct fields, plus a struct
// or enum defined inline in the declaration.
func cDeclaration(w *walker, n *sitter.Node, sc scope, cpp bool) {
	if t := n.ChildByFieldName("type"); t != nil {
		w.visit(t, sc)
	}
	from := len(w.defs)
	for _, dn := range w.fieldChildren(n, "declarator") {
		d, isFunc := cDeclarator(w, dn)
		name, qual := cName(w, d)
		if name == nil || qual != "" {
			continue
		}
		kind := KindVariable
		switch {
		case isFunc && sc.inType:
			kind = KindMethod
		case isFunc:
			kind = KindFunction
		case sc.inType:
			kind = KindField
		}
		if def := w.add(n, name, w.text(name), kind, sc); def != nil && isFunc {
			def.prototype = true
		}
	}
	w.group(n, from)
}

func cTypedef(w *walker, n *sitter.Node, sc scope) {
	if t := n.ChildByFieldName("type"); t != nil {
		w.visit(t, sc)
	}
	for _, dn := range w.fieldChildren(n, "declarator") {
		if d, _ := cDeclarator(w, dn); d != nil {
			w.add(n, d, w.text(d), KindType, sc)
		}
	}
}

// cRecord handles struct, union, enum and class specifiers that have a body;
// a bare `struct foo` is a reference, not a definition.
func cRecord(kind Kind) func(w *walker, n *sitter.Node, sc scope) {
	return func(w *walker, n *sitter.Node, sc scope) {
		body := n.ChildByFieldName("body")
		name := n.ChildByFieldName("name")
		if body == nil || name == nil {
			return
		}
		nm, _ := cName(w, name)
		if nm == nil {
			return
		}
		tn := w.text(nm)
		w.add(n, nm, tn, kind, sc)
		if kind != KindEnum {
			w.members(body, false, tn, sc)
		}
	}
}

// dropDefinedPrototypes removes declarations of functions the same file
// also defines, so each function is listed once.
func dropDefinedPrototypes(defs []Definition) []Definition {
	defined := make(map[string]bool)
	for _, d := range defs {
		if !d.prototype && (d.Kind == KindFunction || d.Kind == KindMethod) {
			defined[d.Parent+"\x00"+d.Name] = true
		}
	}
	out := defs[:0]
	for _, d := range defs {
		if d.prototype && defined[d.Parent+"\x00"+d.Name] {
			continue
		}
		out = append(out, d)
	}
	return out
}
