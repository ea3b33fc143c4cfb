package treesitter

// Kind classifies a definition.
type Kind string

const (
	KindFunction  Kind = "function"
	KindMethod    Kind = "method"
	KindClass     Kind = "class"
	KindStruct    Kind = "struct"
	KindInterface Kind = "interface"
	KindTrait     Kind = "trait"
	KindImpl      Kind = "impl"
	KindEnum      Kind = "enum"
	KindType      Kind = "type"
	KindConstant  Kind = "constant"
	KindVariable  Kind = "variable"
	KindField     Kind = "field"
	KindModule    Kind = "module"
	KindNamespace Kind = "namespace"
	KindMacro     Kind = "macro"
)

// Definition is one named thing a source file declares.
type Definition struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Start and End are 1-based, inclusive line numbers of the whole
	// declaration (decorators and annotations included where the grammar
	// attaches them).
	Start int `json:"start"`
	End   int `json:"end"`
	// Signature is the trimmed source line that carries the name, cut at
	// MaxSignature bytes.
	Signature string `json:"signature"`
	// Parent names the enclosing definition (a method's class, impl or
	// receiver type; nested scopes joined with "."). Empty at top level.
	Parent string `json:"parent,omitempty"`
	// Depth is 0 for top-level definitions, 1 for their members, and so on.
	Depth int `json:"depth,omitempty"`
	// Group is the 1-based first line of the declaration a definition shares
	// with its siblings (Go's const ( ... ), `let a = 1, b = 2`); 0 when the
	// definition stands alone. Listings collapse long groups by it.
	Group int `json:"group,omitempty"`
	// GroupEnd is the last line of that shared declaration.
	GroupEnd int `json:"group_end,omitempty"`

	prototype bool // a C declaration of a function, dropped if the file defines it
}

// MaxSignature caps Signature so one minified line cannot flood a listing.
const MaxSignature = 200
