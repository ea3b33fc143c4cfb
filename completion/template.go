package completion

import (
	"strings"
)

// Family is how one family of code models spells fill-in-the-middle: the
// tokens around prefix and suffix in the order it was trained on, and the
// tokens that end its answer. A server given a raw prompt (Ollama with
// raw, an OpenAI-compatible /v1/completions without suffix support) gets
// the prompt Family.Prompt builds.
type Family struct {
	Name string
	// match lists lower-case substrings of a model name that select it.
	match []string
	// Prefix, Suffix and Middle are the FIM tokens; SuffixFirst puts the
	// suffix before the prefix (Codestral's [SUFFIX]…[PREFIX]…).
	Prefix, Suffix, Middle string
	SuffixFirst            bool
	// FileSep, when the family was trained on repository-level context,
	// starts each context file ("<|file_sep|>path\ntext"); RepoName, if
	// set, comes once before the files. Without FileSep, context files
	// are written as comments at the top of the prefix.
	RepoName, FileSep string
	// Stop are the tokens that end an answer (and any the model would
	// start a new file or hole with).
	Stop []string
}

// families is the one table of FIM tokens, first match wins (more
// specific names first).
var families = []Family{
	{
		Name: "qwen", match: []string{"qwen"},
		Prefix: "<|fim_prefix|>", Suffix: "<|fim_suffix|>", Middle: "<|fim_middle|>",
		RepoName: "<|repo_name|>", FileSep: "<|file_sep|>",
		Stop: []string{"<|endoftext|>", "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<|fim_pad|>", "<|file_sep|>", "<|repo_name|>", "<|im_end|>"},
	},
	{
		Name: "deepseek", match: []string{"deepseek-coder", "deepseek_coder", "deepseekcoder"},
		Prefix: "<｜fim▁begin｜>", Suffix: "<｜fim▁hole｜>", Middle: "<｜fim▁end｜>",
		Stop: []string{"<｜end▁of▁sentence｜>", "<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>", "<|EOT|>"},
	},
	{
		Name: "starcoder", match: []string{"starcoder"},
		Prefix: "<fim_prefix>", Suffix: "<fim_suffix>", Middle: "<fim_middle>",
		RepoName: "<repo_name>", FileSep: "<file_sep>",
		Stop: []string{"<|endoftext|>", "<fim_prefix>", "<fim_suffix>", "<fim_middle>", "<file_sep>", "<repo_name>"},
	},
	{
		Name: "codestral", match: []string{"codestral"},
		Prefix: "[PREFIX]", Suffix: "[SUFFIX]", SuffixFirst: true,
		Stop: []string{"</s>", "[PREFIX]", "[SUFFIX]"},
	},
	{
		Name: "codellama", match: []string{"codellama", "code-llama", "code_llama"},
		Prefix: "<PRE> ", Suffix: " <SUF>", Middle: " <MID>",
		Stop: []string{"<EOT>", "</s>", "<PRE>", "<SUF>", "<MID>"},
	},
	{
		Name: "codegemma", match: []string{"codegemma"},
		Prefix: "<|fim_prefix|>", Suffix: "<|fim_suffix|>", Middle: "<|fim_middle|>",
		FileSep: "<|file_separator|>",
		Stop:    []string{"<|file_separator|>", "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<end_of_turn>", "<eos>"},
	},
}

// FamilyOf returns the family a model belongs to: the one template names
// (config.json completion.template), else the first whose name the model
// id contains. ok is false for an unknown model or template "none".
func FamilyOf(model, template string) (Family, bool) {
	if template != "" {
		for _, f := range families {
			if strings.EqualFold(template, f.Name) {
				return f, true
			}
		}
		return Family{}, false
	}
	m := strings.ToLower(model)
	for _, f := range families {
		for _, s := range f.match {
			if strings.Contains(m, s) {
				return f, true
			}
		}
	}
	return Family{}, false
}

// FamilyNames lists the names completion.template accepts.
func FamilyNames() []string {
	out := make([]string, 0, len(families)+1)
	for _, f := range families {
		out = append(out, f.Name)
	}
	return append(out, "none")
}

// Prompt writes p as one raw prompt in the family's tokens: context files
// first (stable across keystrokes, so a server's KV cache keeps them),
// then the hole.
func (f Family) Prompt(p *Prompt) string {
	var b strings.Builder
	prefix := p.Prefix
	if f.FileSep != "" && len(p.Context) > 0 {
		if f.RepoName != "" {
			b.WriteString(f.RepoName)
			b.WriteString(p.Repo)
			b.WriteByte('\n')
		}
		for _, c := range p.Context {
			b.WriteString(f.FileSep)
			b.WriteString(c.Path)
			b.WriteByte('\n')
			b.WriteString(c.Text)
			ensureNewline(&b, c.Text)
		}
		b.WriteString(f.FileSep)
		b.WriteString(p.Path)
		b.WriteByte('\n')
	} else {
		prefix = p.Header() + prefix
	}
	if f.SuffixFirst {
		b.WriteString(f.Suffix)
		b.WriteString(p.Suffix)
		b.WriteString(f.Prefix)
		b.WriteString(prefix)
		b.WriteString(f.Middle)
		return b.String()
	}
	b.WriteString(f.Prefix)
	b.WriteString(prefix)
	b.WriteString(f.Suffix)
	b.WriteString(p.Suffix)
	b.WriteString(f.Middle)
	return b.String()
}

func ensureNewline(b *strings.Builder, s string) {
	if s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
}
