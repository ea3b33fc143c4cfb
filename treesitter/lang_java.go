package treesitter

func javaSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"class_declaration":           {kind: KindClass, body: "body"},
			"record_declaration":          {kind: KindClass, body: "body"},
			"interface_declaration":       {kind: KindInterface, body: "body"},
			"annotation_type_declaration": {kind: KindInterface, body: "body"},
			"enum_declaration":            {kind: KindEnum, body: "body"},
			"enum_constant":               {kind: KindConstant},
			"method_declaration":          {kind: KindMethod},
			"constructor_declaration":     {kind: KindMethod},
			"field_declaration":           {emit: javaFields(KindField)},
			"constant_declaration":        {emit: javaFields(KindConstant)},
		},
		transparent: set("class_body", "interface_body", "enum_body", "enum_body_declarations",
			"annotation_type_body"),
	}
}

// javaFields records each declarator of `int a, b;`.
func javaFields(kind Kind) func(w *walker, n node, sc scope) {
	return func(w *walker, n node, sc scope) {
		from := len(w.defs)
		for _, d := range w.fieldChildren(n, "declarator") {
			if name := w.field(d, "name"); !name.null() {
				w.add(n, name, w.text(name), kind, sc)
			}
		}
		w.group(n, from)
	}
}
