package treesitter

// Kotlin is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
func kotlinSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"class_declaration":    {emit: kotlinClass},
			"object_declaration":   {kind: KindClass, name: byType("type_identifier"), body: "."},
			"function_declaration": {kind: KindFunction, memberKind: KindMethod, name: byType("simple_identifier")},
			"property_declaration": {emit: kotlinPropertyDecl},
			"enum_entry":           {kind: KindConstant, name: byType("simple_identifier")},
			"type_alias":           {kind: KindType, name: byType("type_identifier")},
		},
		transparent: set("class_body", "enum_class_body", "companion_object"),
	}
}

// kotlinClass tells interfaces from classes by their keyword.
func kotlinClass(w *walker, n node, sc scope) {
	name := w.firstOfType(n, "type_identifier")
	if name.null() {
		return
	}
	kind := KindClass
	w.each(n, false, func(c node) bool {
		if !c.isNamed() && w.typ(c) == "interface" {
			kind = KindInterface
			return false
		}
		return true
	})
	// Members sit in a class_body or enum_class_body (both transparent),
	// so walking the declaration itself finds them; an enum's constants
	// are grouped over its body.
	body := n
	if b := w.firstOfType(n, "enum_class_body"); !b.null() {
		kind, body = KindEnum, b
	}
	w.addContainer(n, name, w.text(name), kind, sc, body, false)
}

// kotlinPropertyDecl records a property: a constant if declared `const`,
// else a field inside a type and a variable outside one.
func kotlinPropertyDecl(w *walker, n node, sc scope) {
	name := kotlinProperty(w, n)
	if name.null() {
		return
	}
	kind := KindVariable
	if sc.inType {
		kind = KindField
	}
	if mods := w.firstOfType(n, "modifiers"); !mods.null() {
		for _, m := range w.namedChildren(mods) {
			if w.typ(m) == "property_modifier" && w.text(m) == "const" {
				kind = KindConstant
			}
		}
	}
	w.add(n, name, w.text(name), kind, sc)
}

func kotlinProperty(w *walker, n node) node {
	if v := w.firstOfType(n, "variable_declaration"); !v.null() {
		return w.firstOfType(v, "simple_identifier")
	}
	return node{}
}
