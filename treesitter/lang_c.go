package treesitter

// C and C++ share one walker; C++ adds classes, namespaces and templates.
func cRules(cpp bool) map[string]rule {
	r := map[string]rule{
		"function_definition":  {emit: func(w *walker, n node, sc scope) { cFunction(w, n, sc, cpp) }},
		"declaration":          {emit: func(w *walker, n node, sc scope) { cDeclaration(w, n, sc, cpp) }},
		"field_declaration":    {emit: func(w *walker, n node, sc scope) { cDeclaration(w, n, sc, cpp) }},
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
func cDeclarator(w *walker, d node) (name node, isFunc bool) {
	for !d.null() {
		switch w.typ(d) {
		case "function_declarator":
			inner := w.field(d, "declarator")
			if !inner.null() && w.typ(inner) != "parenthesized_declarator" {
				isFunc = true
			}
			d = inner
		case "pointer_declarator", "array_declarator", "init_declarator", "attributed_declarator":
			d = w.field(d, "declarator")
		case "parenthesized_declarator", "reference_declarator":
			d = w.firstOfType(d, "identifier", "field_identifier", "pointer_declarator",
				"function_declarator", "array_declarator", "parenthesized_declarator", "qualified_identifier")
		default:
			return d, isFunc
		}
	}
	return node{}, false
}

// cName splits a C++ qualified name (Foo::bar) into the name and its scope.
func cName(w *walker, n node) (name node, scopeName string) {
	for !n.null() && w.typ(n) == "qualified_identifier" {
		if s := w.field(n, "scope"); !s.null() {
			if w.typ(s) == "template_type" { // Shape<T>::area belongs to Shape
				if tn := w.field(s, "name"); !tn.null() {
					s = tn
				}
			}
			scopeName = joinQualified(scopeName, w.text(s))
		}
		n = w.field(n, "name")
	}
	return n, scopeName
}

func joinQualified(a, b string) string {
	if a == "" {
		return b
	}
	return a + "::" + b
}

func cFunction(w *walker, n node, sc scope, cpp bool) {
	d, _ := cDeclarator(w, w.field(n, "declarator"))
	name, qual := cName(w, d)
	if name.null() {
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
func cDeclaration(w *walker, n node, sc scope, cpp bool) {
	if t := w.field(n, "type"); !t.null() {
		w.visit(t, sc)
	}
	from := len(w.defs)
	for _, dn := range w.fieldChildren(n, "declarator") {
		d, isFunc := cDeclarator(w, dn)
		name, qual := cName(w, d)
		if name.null() || qual != "" {
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

func cTypedef(w *walker, n node, sc scope) {
	if t := w.field(n, "type"); !t.null() {
		w.visit(t, sc)
	}
	for _, dn := range w.fieldChildren(n, "declarator") {
		if d, _ := cDeclarator(w, dn); !d.null() {
			w.add(n, d, w.text(d), KindType, sc)
		}
	}
}

// cRecord handles struct, union, enum and class specifiers that have a body;
// a bare `struct foo` is a reference, not a definition.
func cRecord(kind Kind) func(w *walker, n node, sc scope) {
	return func(w *walker, n node, sc scope) {
		body := w.field(n, "body")
		name := w.field(n, "name")
		if body.null() || name.null() {
			return
		}
		nm, _ := cName(w, name)
		if nm.null() {
			return
		}
		tn := w.text(nm)
		if w.add(n, nm, tn, kind, sc) == nil {
			return
		}
		if kind != KindEnum {
			w.members(body, false, tn, sc)
			return
		}
		at := len(w.defs) - 1
		inner := scope{parent: joinScope(sc.parent, tn), depth: sc.depth + 1, inType: true}
		for _, e := range w.namedChildren(body) {
			if en := w.field(e, "name"); w.typ(e) == "enumerator" && !en.null() {
				w.add(e, en, w.text(en), KindConstant, inner)
			}
		}
		w.groupEnumerators(body, at)
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
