package treesitter

func rubySpec() *spec {
	return &spec{
		rules: map[string]rule{
			"class":            {kind: KindClass, body: "."},
			"module":           {kind: KindModule, body: ".", flat: true},
			"method":           {kind: KindFunction, memberKind: KindMethod},
			"singleton_method": {kind: KindMethod},
			"assignment":       {emit: rubyConstant},
		},
		// `class << self` bodies hold singleton methods of the enclosing class.
		transparent: set("body_statement", "singleton_class"),
	}
}

// rubyConstant records `NAME = value`; other assignments are not definitions.
func rubyConstant(w *walker, n node, sc scope) {
	left := w.field(n, "left")
	if left.null() || w.typ(left) != "constant" {
		return
	}
	w.add(n, left, w.text(left), KindConstant, sc)
}
