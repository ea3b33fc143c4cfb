package treesitter

import "strings"

// Lua is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
func luaSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"function_statement":   {emit: luaFunction},
			"function_declaration": {emit: luaFunction},
		},
	}
}

// luaFunction names `function M.f()` and `function M:f()` after their table.
func luaFunction(w *walker, n node, sc scope) {
	name := w.field(n, "name")
	if name.null() {
		name = w.firstOfType(n, "function_name", "identifier")
	}
	if name.null() {
		return
	}
	full := w.text(name)
	kind := KindFunction
	if i := strings.LastIndexAny(full, ".:"); i > 0 {
		kind = KindMethod
		sc = scope{parent: full[:i], depth: sc.depth + 1, inType: true}
		full = full[i+1:]
	}
	// This grammar starts a statement (and its first tokens) at the end of
	// the previous one, so the span runs from the name to the closing `end`.
	if def := w.add(n, name, full, kind, sc); def != nil {
		def.Start = name.startRow() + 1
		if end := w.firstOfType(n, "function_end"); !end.null() {
			def.End = int(end.end_row) + 1
		}
	}
}
