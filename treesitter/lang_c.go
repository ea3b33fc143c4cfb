package treesitter

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// C and C++ share one walker; C++ adds classes, namespaces and templates.
func cRules(cpp bool) map[string]rule {
	r := map[string]rule{
		"function_definition":  {emit: func(w *walker, n node, sc scope) { cFunction(w, n, sc, cpp) }},
		"declaration":          {emit: func(w *walker, n node, sc scope) { cDeclaration(w, n, sc, cpp) }},
		"field_declaration":    {emit: func(w *walker, n node, sc scope) { cDeclaration(w, n, sc, cpp) }},
		"type_definition":      {emit: cTypedef},
		"struct_specifier":     {emit: cRecord(KindStruct)},
		"union_specifier":      {emit: cRecord(KindStruct)},
		"enum_specifier":       {emit: cRecord(KindEnum)},
		"preproc_def":          {kind: KindConstant},
		"preproc_function_def": {kind: KindMacro},
		// Enumerators are walked like any member, so those behind an
		// #ifdef, and #defines between them, are found too.
		"enumerator": {kind: KindConstant},
		// Met only where the parser gave up on the declaration around it (an
		// ERROR): `extern int f (int) __THROW __nonnull ((1));` still
		// declares f.
		"function_declarator": {emit: cLooseDeclarator},
		// `#define X X` between enumerators is not a preproc_def there.
		"preproc_call": {emit: cDefineCall},
	}
	if cpp {
		r["class_specifier"] = rule{emit: cRecord(KindClass)}
		r["namespace_definition"] = rule{kind: KindNamespace, body: "body", flat: true}
		r["alias_declaration"] = rule{kind: KindType}
		r["concept_definition"] = rule{kind: KindType}
	}
	return r
}

func cTransparent() map[string]bool {
	return set("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
		"preproc_elifdef", "linkage_specification", "declaration_list")
}

func cSpec() *spec {
	return &spec{rules: cRules(false), transparent: cTransparent(), post: dropDefinedPrototypes}
}

func cppSpec() *spec {
	return &spec{
		rules:       cRules(true),
		transparent: union(cTransparent(), set("template_declaration", "field_declaration_list")),
		post:        dropDefinedPrototypes,
		parseAs:     maskExportMacros,
	}
}

// exportMacro finds `class U_COMMON_API UnicodeString :`: a macro between
// the keyword and the name (a library's export or visibility attribute).
// The C++ grammar takes the macro for the name and the class for a
// function, so the macro is blanked before parsing.
// It is compiled on first use: start-up pays for no grammar's regexps.
var exportMacro = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:class|struct|union)[ \t]+([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t\r\n]*[:{]`)
})

// maskExportMacros returns src with every exportMacro's macro replaced by
// spaces (a same-length copy; src itself is untouched), or src when there is none.
func maskExportMacros(src []byte) []byte {
	locs := exportMacro().FindAllSubmatchIndex(src, -1)
	if len(locs) == 0 {
		return src
	}
	out := bytes.Clone(src)
	for _, l := range locs {
		for i := l[2]; i < l[3]; i++ {
			out[i] = ' '
		}
	}
	return out
}

func union(a, b map[string]bool) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// cDeclarator unwraps pointers, arrays and parentheses down to the declared
// name; isFunc reports whether the name declares a function (not a pointer to one).
func cDeclarator(w *walker, d node) (name node, isFunc bool) {
	for !d.null() {
		switch w.typ(d) {
		case "function_declarator":
			inner := w.field(d, "declarator")
			if !inner.null() && w.typ(inner) != "parenthesized_declarator" {
				isFunc = true
			}
			d = inner
		case "pointer_declarator", "array_declarator", "init_declarator", "attributed_declarator":
			d = w.field(d, "declarator")
		case "parenthesized_declarator", "reference_declarator":
			// `(APIENTRYP PFNGLHINTPROC)`: the macro before the name
			// parses as an ERROR, the name as a type_identifier.
			d = w.firstOfType(d, "identifier", "field_identifier", "type_identifier", "pointer_declarator",
				"function_declarator", "array_declarator", "parenthesized_declarator", "qualified_identifier")
		case "operator_cast": // operator bool() const: a function named after its type
			return d, true
		default:
			return d, isFunc
		}
	}
	return node{}, false
}

// cText is a declared name as written, except that a conversion operator
// is named "operator T" without its parameters and qualifiers.
func cText(w *walker, name node) string {
	if w.typ(name) == "operator_cast" {
		if t := w.field(name, "type"); !t.null() {
			return "operator " + w.text(t)
		}
	}
	return w.text(name)
}

// cName splits a C++ qualified name (Foo::bar) into the name and its scope.
func cName(w *walker, n node) (name node, scopeName string) {
	for !n.null() && w.typ(n) == "qualified_identifier" {
		if s := w.field(n, "scope"); !s.null() {
			if w.typ(s) == "template_type" { // Shape<T>::area belongs to Shape
				if tn := w.field(s, "name"); !tn.null() {
					s = tn
				}
			}
			scopeName = joinQualified(scopeName, w.text(s))
		}
		n = w.field(n, "name")
	}
	if !n.null() && w.typ(n) == "template_type" { // a specialisation: resolve<int> is resolve
		n = w.field(n, "name")
	}
	return n, scopeName
}

func joinQualified(a, b string) string {
	if a == "" {
		return b
	}
	return a + "::" + b
}

func cFunction(w *walker, n node, sc scope, cpp bool) {
	d, _ := cDeclarator(w, w.field(n, "declarator"))
	name, qual := cName(w, d)
	if name.null() {
		return
	}
	kind := KindFunction
	if sc.inType {
		kind = KindMethod
	}
	if qual != "" {
		kind = KindMethod
		sc = scope{parent: joinScope(sc.parent, qual), depth: sc.depth + 1, inType: true}
	}
	w.add(n, name, cText(w, name), kind, sc)
}

// cDeclaration records globals, prototypes and struct fields, plus a struct
// or enum defined inline in the declaration.
func cDeclaration(w *walker, n node, sc scope, cpp bool) {
	if t := w.field(n, "type"); !t.null() {
		w.visit(t, sc)
	}
	if cSplitByMacro(w, n) {
		return
	}
	from := len(w.defs)
	for _, dn := range w.fieldChildren(n, "declarator") {
		d, isFunc := cDeclarator(w, dn)
		name, qual := cName(w, d)
		if name.null() || qual != "" {
			continue
		}
		kind := KindVariable
		switch {
		case isFunc && sc.inType:
			kind = KindMethod
		case isFunc:
			kind = KindFunction
		case sc.inType:
			kind = KindField
		}
		if def := w.add(n, name, cText(w, name), kind, sc); def != nil && isFunc {
			def.prototype = true
		}
	}
	w.group(n, from)
}

// cSplitByMacro reports a declaration the parser closed with a semicolon it
// made up: an unknown macro in front (`GLAPI void APIENTRY glHint(…);`)
// splits the line in two, and the first half would "declare" `void`. The
// second half is the real declaration and is kept.
func cSplitByMacro(w *walker, n node) bool {
	var last node
	w.each(n, false, func(ch node) bool { last = ch; return true })
	return !last.null() && !last.isNamed() && last.start_byte == last.end_byte
}

func cTypedef(w *walker, n node, sc scope) {
	var names []node
	for _, dn := range w.fieldChildren(n, "declarator") {
		if d, _ := cDeclarator(w, dn); !d.null() {
			names = append(names, d)
		}
	}
	t := w.field(n, "type")
	anonymous := !t.null() && w.field(t, "name").null() && !w.field(t, "body").null() && len(names) > 0
	if !anonymous {
		w.visit(t, sc)
	}
	for i, d := range names {
		name := w.text(d)
		if i > 0 || !anonymous {
			w.add(n, d, name, KindType, sc)
			continue
		}
		// `typedef struct { … } point;`: the members are point's.
		w.addContainer(n, d, name, KindType, sc, w.field(t, "body"), false)
	}
}

// cRecord handles struct, union, enum and class specifiers that have a body;
// a bare `struct foo` is a reference, not a definition. An anonymous one
// (`enum { A, B };`, `struct { … } x;`) adds no definition of its own, but
// its members are still found, in the scope around it.
func cRecord(kind Kind) func(w *walker, n node, sc scope) {
	return func(w *walker, n node, sc scope) {
		body := w.field(n, "body")
		if body.null() {
			return
		}
		name := w.field(n, "name")
		if name.null() {
			if kind == KindEnum {
				cEnumerators(w, body, sc)
			} else {
				w.members(body, false, "", sc)
			}
			return
		}
		nm, _ := cName(w, name)
		if nm.null() {
			return
		}
		if kind != KindEnum {
			w.addContainer(n, nm, w.text(nm), kind, sc, body, false)
			return
		}
		tn := w.text(nm)
		if w.add(n, nm, tn, kind, sc) == nil {
			return
		}
		at := len(w.defs) - 1
		cEnumerators(w, body, scope{parent: joinScope(sc.parent, tn), depth: sc.depth + 1, inType: true})
		w.groupEnumerators(body, at)
	}
}

// cEnumerators walks an enum body. glibc writes `#define DAY_1 DAY_1`
// after each enumerator; the grammar cannot place a #define there, so the
// enumerator after one comes back as a bare identifier in an ERROR.
func cEnumerators(w *walker, body node, sc scope) {
	w.each(body, true, func(e node) bool {
		if e.symbol != errorSymbol {
			w.visit(e, sc)
			return true
		}
		w.each(e, true, func(id node) bool {
			if w.typ(id) == "identifier" {
				w.add(id, id, w.text(id), KindConstant, sc)
			} else {
				w.visit(id, sc)
			}
			return true
		})
		return true
	})
}

// cLooseDeclarator records the function a declarator names when the
// declaration holding it did not parse.
func cLooseDeclarator(w *walker, n node, sc scope) {
	d, isFunc := cDeclarator(w, n)
	if !isFunc || w.typ(d) != "identifier" {
		return
	}
	if def := w.add(n, d, w.text(d), KindFunction, sc); def != nil {
		def.prototype = true
	}
}

// cDefineCall records `#define NAME …` that the grammar parsed as a
// generic preprocessor call.
func cDefineCall(w *walker, n node, sc scope) {
	dir, arg := w.field(n, "directive"), w.field(n, "argument")
	if dir.null() || arg.null() || w.text(dir) != "#define" {
		return
	}
	name, _, _ := strings.Cut(strings.TrimSpace(w.text(arg)), " ")
	name, _, _ = strings.Cut(name, "\t")
	if name != "" && isCIdentifier(name) {
		w.add(n, arg, name, KindConstant, sc)
	}
}

func isCIdentifier(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// dropDefinedPrototypes removes declarations of functions the same file
// also defines, so each function is listed once.
func dropDefinedPrototypes(defs []Definition) []Definition {
	defined := make(map[string]bool)
	for _, d := range defs {
		if !d.prototype && (d.Kind == KindFunction || d.Kind == KindMethod) {
			defined[d.Parent+"\x00"+d.Name] = true
		}
	}
	out := defs[:0]
	for _, d := range defs {
		if d.prototype && defined[d.Parent+"\x00"+d.Name] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// cppMarkers start lines that only C++ has. The first group decides on its
// own (no C code starts a line with `namespace x {` or `template <`); the
// rest, which a comment or macro could imitate, need a second hit.
var (
	cppStrong = [][]byte{[]byte("namespace "), []byte("template<"), []byte("template <"),
		[]byte("using namespace "), []byte("enum class "), []byte("enum struct ")}
	cppWeak = [][]byte{[]byte("class "), []byte("public:"), []byte("private:"), []byte("protected:")}
)

// looksLikeCpp reports a file the registry calls C (by its .h) that is C++.
// The C grammar would turn its classes into errors and lose them.
func looksLikeCpp(src []byte) bool {
	weak := 0
	for line := range bytes.Lines(src) {
		line = bytes.TrimLeft(line, " \t")
		for _, m := range cppStrong {
			if bytes.HasPrefix(line, m) {
				return true
			}
		}
		for _, m := range cppWeak {
			if bytes.HasPrefix(line, m) {
				if weak++; weak == 2 {
					return true
				}
				break
			}
		}
	}
	return false
}
