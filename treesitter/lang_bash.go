package treesitter

// Bash is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
var bashSpec = &spec{
	rules: map[string]rule{
		"function_definition": {kind: KindFunction},
	},
}
