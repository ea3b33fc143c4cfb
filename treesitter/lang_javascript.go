package treesitter

// jsRules are shared by JavaScript and TypeScript (TS adds its own).
func jsRules() map[string]rule {
	return map[string]rule{
		"function_declaration":           {kind: KindFunction},
		"generator_function_declaration": {kind: KindFunction},
		"class_declaration":              {kind: KindClass, body: "body"},
		"class":                          {kind: KindClass, body: "body"},
		"method_definition":              {kind: KindMethod},
		"field_definition":               {kind: KindField, name: byField("property")},
		"lexical_declaration":            {emit: jsDeclaration},
		"variable_declaration":           {emit: jsDeclaration},
	}
}

var jsSpec = &spec{
	rules:       jsRules(),
	transparent: set("export_statement", "class_body"),
}

// jsDeclaration records each declarator of `const a = 1, f = () => {}`;
// functions and classes assigned to a name are named after it.
func jsDeclaration(w *walker, n node, sc scope) {
	if sc.inType {
		return
	}
	from := len(w.defs)
	isConst := w.typ(w.child(n, 0)) == "const"
	for _, d := range w.namedChildren(n) {
		if w.typ(d) != "variable_declarator" {
			continue
		}
		name := w.field(d, "name")
		if name.null() || w.typ(name) != "identifier" {
			continue // destructuring patterns declare nothing worth listing
		}
		kind := KindVariable
		if isConst {
			kind = KindConstant
		}
		span := d
		if v := w.field(d, "value"); !v.null() {
			switch w.typ(v) {
			case "arrow_function", "function", "function_expression", "generator_function":
				kind = KindFunction
			case "class":
				kind = KindClass
			}
		}
		if len(w.namedChildren(n)) == 1 {
			span = n
		}
		w.add(span, name, w.text(name), kind, sc)
	}
	w.group(n, from)
}
