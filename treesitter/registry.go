package treesitter

import (
	"path/filepath"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/bash"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/c"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/cpp"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/csharp"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/golang"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/java"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/javascript"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/kotlin"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/lua"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/php"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/python"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/ruby"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/rust"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/scala"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/swift"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/tsx"
	"github.com/tandemhq/tandem/treesitter/internal/grammars/typescript"
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
	{Name: "go", Extensions: []string{".go"}, grammar: golang.Language, spec: goSpec},
	{Name: "python", Extensions: []string{".py", ".pyi"}, grammar: python.Language, spec: pythonSpec},
	{Name: "javascript", Extensions: []string{".js", ".mjs", ".cjs", ".jsx"}, grammar: javascript.Language, spec: jsSpec},
	{Name: "typescript", Extensions: []string{".ts", ".mts", ".cts"}, grammar: typescript.Language, spec: tsSpec},
	{Name: "tsx", Extensions: []string{".tsx"}, grammar: tsx.Language, spec: tsSpec},
	{Name: "rust", Extensions: []string{".rs"}, grammar: rust.Language, spec: rustSpec},
	{Name: "java", Extensions: []string{".java"}, grammar: java.Language, spec: javaSpec},
	{Name: "c", Extensions: []string{".c", ".h"}, grammar: c.Language, spec: cSpec,
		dialect: &dialect{name: "cpp", match: looksLikeCpp}},
	{Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".c++", ".h++"}, grammar: cpp.Language, spec: cppSpec},
	{Name: "ruby", Extensions: []string{".rb", ".rake", ".gemspec"}, grammar: ruby.Language, spec: rubySpec},
	{Name: "csharp", Extensions: []string{".cs"}, grammar: csharp.Language, spec: csharpSpec},
	{Name: "php", Extensions: []string{".php"}, grammar: php.Language, spec: phpSpec},
	{Name: "kotlin", Extensions: []string{".kt", ".kts"}, grammar: kotlin.Language, spec: kotlinSpec},
	{Name: "swift", Extensions: []string{".swift"}, grammar: swift.Language, spec: swiftSpec},
	{Name: "scala", Extensions: []string{".scala", ".sc"}, grammar: scala.Language, spec: scalaSpec},
	{Name: "lua", Extensions: []string{".lua"}, grammar: lua.Language, spec: luaSpec},
	{Name: "bash", Extensions: []string{".sh", ".bash"}, grammar: bash.Language, spec: bashSpec},
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
