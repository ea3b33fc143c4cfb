package treesitter

import sitter "github.com/smacker/go-tree-sitter"

// Swift is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
var swiftSpec = &spec{
	rules: map[string]rule{
		"class_declaration":             {emit: swiftType},
		"protocol_declaration":          {kind: KindInterface, body: "body"},
		"function_declaration":          {kind: KindFunction, memberKind: KindMethod},
		"protocol_function_declaration": {kind: KindMethod},
		"property_declaration":          {kind: KindVariable, memberKind: KindField},
		"typealias_declaration":         {kind: KindType},
	},
	transparent: set("class_body", "protocol_body", "enum_class_body"),
}

// swiftType maps `class`, `struct`, `enum`, `actor` and `extension` to kinds.
func swiftType(w *walker, n *sitter.Node, sc scope) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	kind := KindClass
	if k := n.ChildByFieldName("declaration_kind"); k != nil {
		switch k.Type() {
		case "struct":
			kind = KindStruct
		case "enum":
			kind = KindEnum
		case "extension":
			kind = KindImpl
		}
	}
	tn := w.text(name)
	w.add(n, name, tn, kind, sc)
	w.members(n.ChildByFieldName("body"), false, tn, sc)
}
