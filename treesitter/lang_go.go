package treesitter

import sitter "github.com/smacker/go-tree-sitter"

var goSpec = &spec{
	rules: map[string]rule{
		"function_declaration": {kind: KindFunction},
		"method_declaration":   {emit: goMethod},
		"type_declaration":     {emit: goTypes},
		"const_declaration":    {emit: goValues(KindConstant)},
		"var_declaration":      {emit: goValues(KindVariable)},
	},
}

// goMethod files a method under its receiver's type name.
func goMethod(w *walker, n *sitter.Node, sc scope) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	recv := ""
	if params := n.ChildByFieldName("receiver"); params != nil {
		if p := w.firstOfType(params, "parameter_declaration"); p != nil {
			recv = goTypeName(w, p.ChildByFieldName("type"))
		}
	}
	w.add(n, name, w.text(name), KindMethod, scope{parent: recv, depth: sc.depth + 1, inType: true})
}

// goTypeName strips pointers and type arguments: *List[T] -> List.
func goTypeName(w *walker, t *sitter.Node) string {
	for t != nil {
		switch t.Type() {
		case "pointer_type", "parenthesized_type":
			t = w.firstOfType(t, "type_identifier", "generic_type", "qualified_type", "pointer_type")
		case "generic_type":
			t = t.ChildByFieldName("type")
		default:
			return w.text(t)
		}
	}
	return ""
}

func goTypes(w *walker, n *sitter.Node, sc scope) {
	from := len(w.defs)
	for _, s := range w.namedChildren(n) {
		if s.Type() != "type_spec" && s.Type() != "type_alias" {
			continue
		}
		name := s.ChildByFieldName("name")
		if name == nil {
			continue
		}
		typ := s.ChildByFieldName("type")
		kind := KindType
		if typ != nil && s.Type() == "type_spec" {
			switch typ.Type() {
			case "struct_type":
				kind = KindStruct
			case "interface_type":
				kind = KindInterface
			}
		}
		// A lone `type T struct` spans its declaration keyword too.
		span := s
		if len(w.namedChildren(n)) == 1 {
			span = n
		}
		tn := w.text(name)
		w.add(span, name, tn, kind, sc)
		inner := scope{parent: joinScope(sc.parent, tn), depth: sc.depth + 1, inType: true}
		switch kind {
		case KindStruct:
			goFields(w, w.firstOfType(typ, "field_declaration_list"), inner)
		case KindInterface:
			for _, m := range w.namedChildren(typ) {
				if m.Type() == "method_spec" || m.Type() == "method_elem" {
					if mn := m.ChildByFieldName("name"); mn != nil {
						w.add(m, mn, w.text(mn), KindMethod, inner)
					}
				}
			}
		}
	}
	w.group(n, from)
}

func goFields(w *walker, list *sitter.Node, sc scope) {
	for _, f := range w.namedChildren(list) {
		if f.Type() != "field_declaration" {
			continue
		}
		names := w.fieldChildren(f, "name")
		if len(names) == 0 { // embedded field: named after its type
			if t := f.ChildByFieldName("type"); t != nil {
				w.add(f, t, goTypeName(w, t), KindField, sc)
			}
			continue
		}
		for _, nm := range names {
			w.add(f, nm, w.text(nm), KindField, sc)
		}
	}
}

// goValues handles const and var declarations, grouped or not, with every
// name of `a, b = 1, 2`.
func goValues(kind Kind) func(w *walker, n *sitter.Node, sc scope) {
	return func(w *walker, n *sitter.Node, sc scope) {
		from := len(w.defs)
		var specs []*sitter.Node
		for _, c := range w.namedChildren(n) {
			switch c.Type() {
			case "const_spec", "var_spec":
				specs = append(specs, c)
			case "var_spec_list":
				specs = append(specs, w.namedChildren(c)...)
			}
		}
		for _, s := range specs {
			span := s
			if len(specs) == 1 {
				span = n
			}
			for _, nm := range w.fieldChildren(s, "name") {
				if name := w.text(nm); name != "_" {
					w.add(span, nm, name, kind, sc)
				}
			}
		}
		w.group(n, from)
	}
}
