package treesitter

import "strings"

// jsRules are shared by JavaScript and TypeScript (TS adds its own).
func jsRules() map[string]rule {
	return map[string]rule{
		"function_declaration":           {kind: KindFunction},
		"generator_function_declaration": {kind: KindFunction},
		"class_declaration":              {kind: KindClass, body: "body"},
		"class":                          {kind: KindClass, body: "body"},
		"method_definition":              {kind: KindMethod},
		"field_definition":               {kind: KindField, name: byField("property")},
		"lexical_declaration":            {emit: jsDeclaration},
		"variable_declaration":           {emit: jsDeclaration},
		"expression_statement":           {emit: jsExpression},
	}
}

func jsSpec() *spec {
	return &spec{
		rules:       jsRules(),
		transparent: set("export_statement", "class_body"),
	}
}

// jsDeclaration records each declarator of `const a = 1, f = () => {}`;
// functions and classes assigned to a name are named after it.
func jsDeclaration(w *walker, n node, sc scope) {
	if sc.inType {
		return
	}
	from := len(w.defs)
	isConst := w.typ(w.child(n, 0)) == "const"
	for _, d := range w.namedChildren(n) {
		if w.typ(d) != "variable_declarator" {
			continue
		}
		kind := KindVariable
		if isConst {
			kind = KindConstant
		}
		name := w.field(d, "name")
		if w.typ(name) == "object_pattern" || w.typ(name) == "array_pattern" {
			// `const { setImmediate, clearImmediate } = provider;` at module
			// level names what the module uses; deeper ones are locals.
			if sc.depth == 0 {
				for _, id := range jsPatternNames(w, name) {
					w.add(d, id, w.text(id), kind, sc)
				}
			}
			continue
		}
		if name.null() || w.typ(name) != "identifier" {
			continue
		}
		span := d
		if v := w.field(d, "value"); !v.null() {
			switch w.typ(v) {
			case "arrow_function", "function", "function_expression", "generator_function":
				kind = KindFunction
			case "class":
				kind = KindClass
			}
		}
		if len(w.namedChildren(n)) == 1 {
			span = n
		}
		w.add(span, name, w.text(name), kind, sc)
		if v := w.field(d, "value"); w.typ(v) == "object" && sc.depth == 0 {
			jsObjectMembers(w, v, w.text(name), sc, false)
		}
	}
	w.group(n, from)
}

// jsObjectMembers records the methods of an object literal (`{ parse() {},
// format: function () {} }`) under parent; with all, every key (an
// exports object lists what a module offers). Plain data keys of other
// objects are values, not definitions.
func jsObjectMembers(w *walker, obj node, parent string, sc scope, all bool) {
	inner := scope{parent: joinScope(sc.parent, parent), depth: sc.depth + 1, inType: true}
	if parent == "" {
		inner = sc
	}
	w.each(obj, true, func(m node) bool {
		switch w.typ(m) {
		case "method_definition":
			if name := w.field(m, "name"); !name.null() {
				w.add(m, name, w.text(name), KindMethod, inner)
			}
		case "pair":
			key, val := w.field(m, "key"), w.field(m, "value")
			name := w.text(key)
			switch w.typ(key) {
			case "property_identifier":
			case "string": // 'chunk': require('./chunk')
				name = strings.Trim(name, `'"`)
			default:
				return true
			}
			if jsIsFunction(w, val) {
				w.add(m, key, name, KindMethod, inner)
			} else if all {
				w.add(m, key, name, KindField, inner)
			}
		case "shorthand_property_identifier":
			if all {
				w.add(m, m, w.text(m), KindField, inner)
			}
		}
		return true
	})
}

func jsIsFunction(w *walker, n node) bool {
	switch w.typ(n) {
	case "function_expression", "function", "arrow_function", "generator_function":
		return true
	}
	return false
}

// jsExpression handles statements that define things by running code: a
// function called at once around a whole module (UMD builds such as
// lodash.js), and assignments such as `Hash.prototype.clear = hashClear`
// or `exports.parse = function …`. Anything else is walked through, since
// TypeScript parses `namespace N {}` as an expression statement.
func jsExpression(w *walker, n node, sc scope) {
	var e node
	w.each(n, true, func(c node) bool { e = c; return false })
	if sc.depth == 0 && !sc.inType {
		if body := jsWrapperBody(w, e); !body.null() {
			w.children(body, sc)
			return
		}
	}
	if w.typ(e) == "assignment_expression" {
		jsAssignment(w, n, e, sc)
		return
	}
	w.children(n, sc)
}

// jsWrapperBody returns the body of the function e calls at once:
// `(function () { … })()`, `(function () { … }.call(this))`, `!function () { … }()`.
func jsWrapperBody(w *walker, e node) node {
	called := false
	for !e.null() {
		switch w.typ(e) {
		case "parenthesized_expression":
			e = w.firstOfType(e, "function_expression", "function", "arrow_function", "call_expression", "unary_expression", "parenthesized_expression", "member_expression")
		case "unary_expression":
			e = w.field(e, "argument")
		case "call_expression":
			e, called = w.field(e, "function"), true
		case "member_expression": // .call(this) / .apply(…)
			e = w.field(e, "object")
		case "function_expression", "function", "arrow_function":
			if !called {
				return node{}
			}
			if b := w.field(e, "body"); w.typ(b) == "statement_block" {
				return b
			}
			return node{}
		default:
			return node{}
		}
	}
	return node{}
}

// jsAssignment records `A.prototype.m = …` as a method of A, and
// `exports.f = …` / `module.exports.f = …` / `A.f = function …` as f.
func jsAssignment(w *walker, n, e node, sc scope) {
	left, right := w.field(e, "left"), w.field(e, "right")
	if w.typ(left) != "member_expression" {
		return
	}
	if w.text(left) == "module.exports" && w.typ(right) == "object" {
		jsObjectMembers(w, right, "", sc, true)
		return
	}
	prop, obj := w.field(left, "property"), w.field(left, "object")
	if prop.null() || obj.null() {
		return
	}
	isFunc := jsIsFunction(w, right)
	switch {
	case w.typ(obj) == "member_expression" && w.text(w.field(obj, "property")) == "prototype":
		owner := w.text(w.field(obj, "object"))
		w.add(n, prop, w.text(prop), KindMethod, scope{parent: joinScope(sc.parent, owner), depth: sc.depth + 1, inType: true})
	case w.text(obj) == "exports" || w.text(obj) == "module.exports":
		kind := KindVariable
		if isFunc {
			kind = KindFunction
		}
		w.add(n, prop, w.text(prop), kind, sc)
	case isFunc && w.typ(obj) == "identifier":
		w.add(n, prop, w.text(prop), KindFunction, scope{parent: joinScope(sc.parent, w.text(obj)), depth: sc.depth + 1})
	}
}

// jsPatternNames returns the names a destructuring pattern binds at its
// first level: `{ a, b: c }` binds a and c, `[x, y]` binds x and y.
func jsPatternNames(w *walker, pat node) []node {
	var out []node
	w.each(pat, true, func(c node) bool {
		switch w.typ(c) {
		case "shorthand_property_identifier_pattern", "identifier":
			out = append(out, c)
		case "pair_pattern":
			if v := w.field(c, "value"); w.typ(v) == "identifier" {
				out = append(out, v)
			}
		}
		return true
	})
	return out
}
