package treesitter

// Swift is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
func swiftSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"class_declaration":             {emit: swiftType},
			"protocol_declaration":          {kind: KindInterface, body: "body"},
			"function_declaration":          {kind: KindFunction, memberKind: KindMethod},
			"protocol_function_declaration": {kind: KindMethod},
			"property_declaration":          {kind: KindVariable, memberKind: KindField},
			"typealias_declaration":         {kind: KindType},
			"enum_entry":                    {emit: swiftEnumEntry},
			"init_declaration":              {emit: swiftKeywordMethod("init")},
			"deinit_declaration":            {emit: swiftKeywordMethod("deinit")},
		},
		transparent: set("class_body", "protocol_body", "enum_class_body"),
	}
}

// swiftType maps `class`, `struct`, `enum`, `actor` and `extension` to kinds.
func swiftType(w *walker, n node, sc scope) {
	name := w.field(n, "name")
	if name.null() {
		return
	}
	kind := KindClass
	if k := w.field(n, "declaration_kind"); !k.null() {
		switch w.typ(k) {
		case "struct":
			kind = KindStruct
		case "enum":
			kind = KindEnum
		case "extension":
			kind = KindImpl
		}
	}
	w.addContainer(n, name, w.text(name), kind, sc, w.field(n, "body"), false)
}

// swiftEnumEntry records every case of `case north, south`.
func swiftEnumEntry(w *walker, n node, sc scope) {
	for _, name := range w.fieldChildren(n, "name") {
		w.add(n, name, w.text(name), KindConstant, sc)
	}
}

// swiftKeywordMethod records init and deinit, which the grammar leaves
// without a name node: the declaration itself carries the line.
func swiftKeywordMethod(name string) func(w *walker, n node, sc scope) {
	return func(w *walker, n node, sc scope) {
		w.add(n, n, name, KindMethod, sc)
	}
}
