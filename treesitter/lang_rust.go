package treesitter

func rustSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"function_item":           {kind: KindFunction, memberKind: KindMethod},
			"function_signature_item": {kind: KindFunction, memberKind: KindMethod},
			"struct_item":             {kind: KindStruct, body: "body"},
			"union_item":              {kind: KindStruct, body: "body"},
			"enum_item":               {kind: KindEnum, body: "body"},
			"enum_variant":            {kind: KindConstant},
			"trait_item":              {kind: KindTrait, body: "body"},
			"impl_item":               {emit: rustImpl},
			"type_item":               {kind: KindType},
			"associated_type":         {kind: KindType},
			"const_item":              {kind: KindConstant},
			"static_item":             {kind: KindVariable},
			"mod_item":                {kind: KindModule, body: "body", flat: true},
			"macro_definition":        {kind: KindMacro},
			"field_declaration":       {kind: KindField},
		},
		// An `extern "C" { fn …; }` block declares foreign functions and
		// statics at the level it sits in.
		transparent: set("declaration_list", "field_declaration_list", "enum_variant_list", "foreign_mod_item"),
	}
}

// rustImpl records `impl Trait for Type` under the type's name, so its
// methods' parent is the type they extend.
func rustImpl(w *walker, n node, sc scope) {
	typ := w.field(n, "type")
	if typ.null() {
		return
	}
	name := rustTypeName(w, typ)
	tn := w.text(name)
	w.add(n, typ, tn, KindImpl, sc)
	w.members(w.field(n, "body"), false, tn, sc)
}

// rustTypeName finds the type an impl is for, under references, pointers,
// generics, paths and arrays: `&'a mut Vec<T>` and `alloc::vec::Vec<T>`
// both name Vec.
func rustTypeName(w *walker, t node) node {
	for {
		var inner node
		switch w.typ(t) {
		case "reference_type", "pointer_type", "generic_type":
			inner = w.field(t, "type")
		case "scoped_type_identifier":
			inner = w.field(t, "name")
		case "array_type":
			inner = w.field(t, "element")
		}
		if inner.null() {
			return t
		}
		t = inner
	}
}
