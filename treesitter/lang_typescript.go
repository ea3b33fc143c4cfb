package treesitter

var tsSpec = &spec{
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
		return r
	}(),
	// `namespace N {}` parses as an expression statement; `declare ...` as an
	// ambient declaration; interface bodies are object types.
	transparent: set("export_statement", "class_body", "ambient_declaration",
		"expression_statement", "statement_block", "object_type", "interface_body", "enum_body"),
}
