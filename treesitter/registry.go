package treesitter

import (
	"path/filepath"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// Language is one entry of the registry.
type Language struct {
	// Name is a stable lower-case identifier ("go", "typescript").
	Name string
	// Extensions, lower case with the dot, that select this language.
	Extensions []string
	grammar    func() *sitter.Language
	spec       *spec
	// dialect, if set, names the language a file of this one is parsed as
	// when its source says so: a .h header may be C or C++.
	dialect *dialect

	tablesOnce sync.Once
	tab        *grammarTables
}

// tables returns the language's symbol and field tables, built on first use.
func (l *Language) tables() *grammarTables {
	l.tablesOnce.Do(func() { l.tab = newGrammarTables(l.grammar(), l.spec) })
	return l.tab
}

// registry is the one table of languages tandem knows. It is built once and
// never modified.
var registry = []*Language{
	{Name: "go", Extensions: []string{".go"}, grammar: golang.GetLanguage, spec: goSpec},
	{Name: "python", Extensions: []string{".py", ".pyi"}, grammar: python.GetLanguage, spec: pythonSpec},
	{Name: "javascript", Extensions: []string{".js", ".mjs", ".cjs", ".jsx"}, grammar: javascript.GetLanguage, spec: jsSpec},
	{Name: "typescript", Extensions: []string{".ts", ".mts", ".cts"}, grammar: typescript.GetLanguage, spec: tsSpec},
	{Name: "tsx", Extensions: []string{".tsx"}, grammar: tsx.GetLanguage, spec: tsSpec},
	{Name: "rust", Extensions: []string{".rs"}, grammar: rust.GetLanguage, spec: rustSpec},
	{Name: "java", Extensions: []string{".java"}, grammar: java.GetLanguage, spec: javaSpec},
	{Name: "c", Extensions: []string{".c", ".h"}, grammar: c.GetLanguage, spec: cSpec,
		dialect: &dialect{name: "cpp", match: looksLikeCpp}},
	{Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".c++", ".h++"}, grammar: cpp.GetLanguage, spec: cppSpec},
	{Name: "ruby", Extensions: []string{".rb", ".rake", ".gemspec"}, grammar: ruby.GetLanguage, spec: rubySpec},
	{Name: "csharp", Extensions: []string{".cs"}, grammar: csharp.GetLanguage, spec: csharpSpec},
	{Name: "php", Extensions: []string{".php"}, grammar: php.GetLanguage, spec: phpSpec},
	{Name: "kotlin", Extensions: []string{".kt", ".kts"}, grammar: kotlin.GetLanguage, spec: kotlinSpec},
	{Name: "swift", Extensions: []string{".swift"}, grammar: swift.GetLanguage, spec: swiftSpec},
	{Name: "scala", Extensions: []string{".scala", ".sc"}, grammar: scala.GetLanguage, spec: scalaSpec},
	{Name: "lua", Extensions: []string{".lua"}, grammar: lua.GetLanguage, spec: luaSpec},
	{Name: "bash", Extensions: []string{".sh", ".bash"}, grammar: bash.GetLanguage, spec: bashSpec},
}

var byExtension = func() map[string]*Language {
	m := make(map[string]*Language)
	for _, l := range registry {
		for _, e := range l.Extensions {
			m[e] = l
		}
	}
	return m
}()

type dialect struct {
	name  string // the registry entry to use instead
	match func(src []byte) bool
}

// forSource returns the language src is parsed as: l, or the dialect its
// content calls for.
func (l *Language) forSource(src []byte) *Language {
	if l.dialect != nil && l.dialect.match(src) {
		if d := ByName(l.dialect.name); d != nil {
			return d
		}
	}
	return l
}

// ForPath returns the language of a file by its extension, or nil when
// tandem has no grammar for it.
func ForPath(path string) *Language {
	ext := filepath.Ext(path)
	if ext == "" {
		return nil
	}
	if l := byExtension[ext]; l != nil {
		return l
	}
	return byExtension[strings.ToLower(ext)]
}

// ByName returns the language called name, or nil.
func ByName(name string) *Language {
	for _, l := range registry {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Languages returns every registered language, in registry order. The
// slice is a copy; the Languages are shared and read-only.
func Languages() []*Language {
	return append([]*Language(nil), registry...)
}
