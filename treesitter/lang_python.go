package treesitter

import "strings"

func pythonSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"function_definition":  {kind: KindFunction, memberKind: KindMethod},
			"class_definition":     {kind: KindClass, body: "body"},
			"expression_statement": {emit: pythonAssignment},
		},
		// Decorators wrap the definition; `block` is a class body. Module and
		// class level `if`/`try`/`with` often hold definitions (a fallback
		// import, a version check around a class), so they are walked through.
		transparent: set("decorated_definition", "block",
			"if_statement", "elif_clause", "else_clause",
			"try_statement", "except_clause", "except_group_clause", "finally_clause",
			"with_statement"),
	}
}

// pythonAssignment records module and class level `NAME = value` (and
// annotated `name: T = v`); ALL_CAPS names are constants, class-level ones fields.
func pythonAssignment(w *walker, n node, sc scope) {
	a := w.firstOfType(n, "assignment")
	if a.null() {
		return
	}
	left := w.field(a, "left")
	if left.null() || w.typ(left) != "identifier" {
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
