package treesitter

func tsSpec() *spec {
	return &spec{
		rules: func() map[string]rule {
			r := jsRules()
			r["abstract_class_declaration"] = rule{kind: KindClass, body: "body"}
			r["public_field_definition"] = rule{kind: KindField}
			r["interface_declaration"] = rule{kind: KindInterface, body: "body"}
			r["type_alias_declaration"] = rule{kind: KindType}
			r["enum_declaration"] = rule{kind: KindEnum, body: "body"}
			// Enum members: `A = 1` is an assignment, a bare `B` just its name.
			r["enum_assignment"] = rule{kind: KindConstant}
			r["property_identifier"] = rule{kind: KindConstant, name: func(_ *walker, n node) node { return n }}
			r["function_signature"] = rule{kind: KindFunction}
			r["method_signature"] = rule{kind: KindMethod}
			r["abstract_method_signature"] = rule{kind: KindMethod}
			r["property_signature"] = rule{kind: KindField}
			r["internal_module"] = rule{kind: KindNamespace, body: "body", flat: true}
			r["module"] = rule{kind: KindModule, body: "body", flat: true}
			r["method_definition"] = rule{emit: tsMethod}
			// `new (…): T` in an interface; the keyword is its only name.
			r["construct_signature"] = rule{kind: KindMethod, name: func(w *walker, n node) node { return w.child(n, 0) }}
			return r
		}(),
		// `namespace N {}` parses as an expression statement; `declare ...` as an
		// ambient declaration; interface bodies are object types.
		transparent: set("export_statement", "class_body", "ambient_declaration",
			"expression_statement", "statement_block", "object_type", "interface_body", "enum_body"),
	}
}

// tsMethod records a method; a constructor's parameter properties
// (`constructor(private readonly store: Store)`) are fields of the class too.
func tsMethod(w *walker, n node, sc scope) {
	name := w.field(n, "name")
	if name.null() {
		return
	}
	w.add(n, name, w.text(name), KindMethod, sc)
	if w.text(name) != "constructor" {
		return
	}
	w.each(w.field(n, "parameters"), true, func(p node) bool {
		if pat := w.field(p, "pattern"); w.typ(pat) == "identifier" && tsParameterProperty(w, p) {
			w.add(p, pat, w.text(pat), KindField, sc)
		}
		return true
	})
}

// tsParameterProperty reports a constructor parameter with an access
// modifier or readonly, which declares a field.
func tsParameterProperty(w *walker, p node) bool {
	found := false
	w.each(p, false, func(c node) bool {
		switch w.typ(c) {
		case "accessibility_modifier", "readonly", "override_modifier":
			found = true
		}
		return !found
	})
	return found
}
