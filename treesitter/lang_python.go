package treesitter

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

var pythonSpec = &spec{
	rules: map[string]rule{
		"function_definition":  {kind: KindFunction, memberKind: KindMethod},
		"class_definition":     {kind: KindClass, body: "body"},
		"expression_statement": {emit: pythonAssignment},
	},
	// Decorators wrap the definition; `block` is a class body.
	transparent: set("decorated_definition", "block"),
}

// pythonAssignment records module and class level `NAME = value` (and
// annotated `name: T = v`); ALL_CAPS names are constants, class-level ones fields.
func pythonAssignment(w *walker, n *sitter.Node, sc scope) {
	a := w.firstOfType(n, "assignment")
	if a == nil {
		return
	}
	left := a.ChildByFieldName("left")
	if left == nil || left.Type() != "identifier" {
		return
	}
	name := w.text(left)
	kind := KindVariable
	switch {
	case sc.inType:
		kind = KindField
	case name == strings.ToUpper(name) && strings.ToLower(name) != name:
		kind = KindConstant
	}
	w.add(n, left, name, kind, sc)
}
