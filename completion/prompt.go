package completion

import (
	"path"
	"strings"
)

// Prompt is what one model request carries, before a wire encodes it.
// Equal state gives an equal Prompt, byte for byte.
type Prompt struct {
	Repo   string // the workspace folder's name
	Path   string // the document, slash-separated, relative to the root
	Prefix string // the text before the cursor, within its budget
	Suffix string // the text after the cursor, within its budget
	// Context is the budgeted extra context in a fixed order: the
	// instructions, snippets of other open files, then signatures.
	Context []Chunk
	// MaxTokens bounds the answer.
	MaxTokens int
}

// Chunk is one piece of context attributed to a file.
type Chunk struct {
	Path string
	Text string
}

// Header renders Context as comments in the document's language, for
// wires that take one prompt string and models without a file separator.
func (p *Prompt) Header() string {
	if len(p.Context) == 0 {
		return ""
	}
	c := commentFor(p.Path)
	var b strings.Builder
	for _, ch := range p.Context {
		b.WriteString(c)
		b.WriteString(" Path: ")
		b.WriteString(ch.Path)
		b.WriteByte('\n')
		for line := range strings.Lines(ch.Text) {
			b.WriteString(c)
			b.WriteByte(' ')
			b.WriteString(strings.TrimRight(line, "\r\n"))
			b.WriteByte('\n')
		}
	}
	b.WriteString(c)
	b.WriteString(" Path: ")
	b.WriteString(p.Path)
	b.WriteByte('\n')
	return b.String()
}

// commentFor returns the line-comment token of a file's language.
func commentFor(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".rb", ".sh", ".bash", ".zsh", ".yaml", ".yml", ".toml", ".r", ".pl", ".ex", ".exs", ".nix", ".cmake", ".ps1":
		return "#"
	case ".lua", ".sql", ".hs", ".elm", ".ada":
		return "--"
	case ".el", ".lisp", ".clj", ".scm":
		return ";;"
	case ".erl", ".hrl", ".tex":
		return "%"
	case ".vim":
		return "\""
	}
	return "//"
}
