package treesitter

import (
	"fmt"
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
	grammar    func() (*sitter.Language, error)
	// spec builds the language's walk rules, on first use like the grammar:
	// start-up pays for no language's tables.
	spec func() *spec
	// dialect, if set, names the language a file of this one is parsed as
	// when its source says so: a .h header may be C or C++.
	dialect *dialect

	loadOnce sync.Once
	loaded   loaded
}

// loaded is what a language's first use builds.
type loaded struct {
	grammar *sitter.Language
	tab     *grammarTables
	spec    *spec
	err     error
}

// load returns the language's grammar, its symbol and field tables and its
// walk rules, unpacking the grammar (internal/grammars) and building the
// rest on first use. The error, which only a machine the tables do not fit
// can cause, is the same on every call.
func (l *Language) load() (*sitter.Language, *grammarTables, *spec, error) {
	l.loadOnce.Do(func() {
		g, err := l.grammar()
		if err != nil {
			l.loaded.err = fmt.Errorf("loading the %s grammar: %w", l.Name, err)
			return
		}
		sp := l.spec()
		l.loaded = loaded{grammar: g, tab: newGrammarTables(g, sp), spec: sp}
	})
	return l.loaded.grammar, l.loaded.tab, l.loaded.spec, l.loaded.err
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
