package treesitter

// Scala is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
func scalaSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"class_definition":     {kind: KindClass, body: "body"},
			"object_definition":    {kind: KindClass, body: "body"},
			"trait_definition":     {kind: KindTrait, body: "body"},
			"enum_definition":      {kind: KindEnum},
			"function_definition":  {kind: KindFunction, memberKind: KindMethod},
			"function_declaration": {kind: KindFunction, memberKind: KindMethod},
			"val_definition":       {kind: KindVariable, memberKind: KindField, name: byField("pattern")},
			"var_definition":       {kind: KindVariable, memberKind: KindField, name: byField("pattern")},
			"type_definition":      {kind: KindType},
		},
		transparent: set("template_body"),
	}
}
