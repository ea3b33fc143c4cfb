package treesitter

func csharpSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"namespace_declaration":             {kind: KindNamespace, body: "body", flat: true},
			"file_scoped_namespace_declaration": {kind: KindNamespace, body: ".", flat: true},
			"class_declaration":                 {kind: KindClass, body: "body"},
			"record_declaration":                {kind: KindClass, body: "body"},
			"struct_declaration":                {kind: KindStruct, body: "body"},
			"interface_declaration":             {kind: KindInterface, body: "body"},
			"enum_declaration":                  {kind: KindEnum, body: "body"},
			"enum_member_declaration":           {kind: KindConstant},
			"delegate_declaration":              {kind: KindType},
			"method_declaration":                {kind: KindMethod},
			"constructor_declaration":           {kind: KindMethod},
			"property_declaration":              {kind: KindField},
			"field_declaration":                 {emit: csharpField},
		},
		transparent: set("declaration_list"),
	}
}

func csharpField(w *walker, n node, sc scope) {
	from := len(w.defs)
	for _, d := range w.namedChildren(w.firstOfType(n, "variable_declaration")) {
		if w.typ(d) != "variable_declarator" {
			continue
		}
		name := w.field(d, "name")
		if name.null() {
			name = w.firstOfType(d, "identifier")
		}
		if !name.null() {
			w.add(n, name, w.text(name), KindField, sc)
		}
	}
	w.group(n, from)
}
