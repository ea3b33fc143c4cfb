package treesitter

func goSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"function_declaration": {kind: KindFunction},
			"method_declaration":   {emit: goMethod},
			"type_declaration":     {emit: goTypes},
			"const_declaration":    {emit: goValues(KindConstant)},
			"var_declaration":      {emit: goValues(KindVariable)},
		},
	}
}

// goMethod files a method under its receiver's type name.
func goMethod(w *walker, n node, sc scope) {
	name := w.field(n, "name")
	if name.null() {
		return
	}
	recv := ""
	if params := w.field(n, "receiver"); !params.null() {
		if p := w.firstOfType(params, "parameter_declaration"); !p.null() {
			recv = goTypeName(w, w.field(p, "type"))
		}
	}
	w.add(n, name, w.text(name), KindMethod, scope{parent: recv, depth: sc.depth + 1, inType: true})
}

// goTypeName strips pointers and type arguments: *List[T] -> List.
func goTypeName(w *walker, t node) string {
	for !t.null() {
		switch w.typ(t) {
		case "pointer_type", "parenthesized_type":
			t = w.firstOfType(t, "type_identifier", "generic_type", "qualified_type", "pointer_type")
		case "generic_type":
			t = w.field(t, "type")
		default:
			return w.text(t)
		}
	}
	return ""
}

func goTypes(w *walker, n node, sc scope) {
	from := len(w.defs)
	for _, s := range w.namedChildren(n) {
		if w.typ(s) != "type_spec" && w.typ(s) != "type_alias" {
			continue
		}
		name := w.field(s, "name")
		if name.null() {
			continue
		}
		typ := w.field(s, "type")
		kind := KindType
		if !typ.null() && w.typ(s) == "type_spec" {
			switch w.typ(typ) {
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
				if w.typ(m) == "method_spec" || w.typ(m) == "method_elem" {
					if mn := w.field(m, "name"); !mn.null() {
						w.add(m, mn, w.text(mn), KindMethod, inner)
					}
				}
			}
		}
	}
	w.group(n, from)
}

func goFields(w *walker, list node, sc scope) {
	for _, f := range w.namedChildren(list) {
		if w.typ(f) != "field_declaration" {
			continue
		}
		names := w.fieldChildren(f, "name")
		if len(names) == 0 { // embedded field: named after its type
			if t := w.field(f, "type"); !t.null() {
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
func goValues(kind Kind) func(w *walker, n node, sc scope) {
	return func(w *walker, n node, sc scope) {
		from := len(w.defs)
		var specs []node
		for _, c := range w.namedChildren(n) {
			switch w.typ(c) {
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
