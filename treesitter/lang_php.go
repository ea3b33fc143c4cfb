package treesitter

func phpSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"namespace_definition":  {kind: KindNamespace, body: "body", flat: true},
			"function_definition":   {kind: KindFunction},
			"class_declaration":     {kind: KindClass, body: "body"},
			"interface_declaration": {kind: KindInterface, body: "body"},
			"trait_declaration":     {kind: KindTrait, body: "body"},
			"enum_declaration":      {kind: KindEnum, body: "body"},
			"enum_case":             {kind: KindConstant},
			"method_declaration":    {kind: KindMethod},
			"property_declaration":  {emit: phpList("property_element", KindField)},
			"const_declaration":     {emit: phpList("const_element", KindConstant)},
		},
		transparent: set("declaration_list", "compound_statement", "enum_declaration_list"),
	}
}

// phpList records each element of `public $a, $b;` or `const A = 1, B = 2;`.
func phpList(element string, kind Kind) func(w *walker, n node, sc scope) {
	return func(w *walker, n node, sc scope) {
		from := len(w.defs)
		for _, e := range w.namedChildren(n) {
			if w.typ(e) != element {
				continue
			}
			name := w.field(e, "name")
			if name.null() {
				name = w.firstOfType(e, "variable_name", "name")
			}
			if !name.null() {
				w.add(n, name, w.text(name), kind, sc)
			}
		}
		w.group(n, from)
	}
}
