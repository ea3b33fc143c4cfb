package completion

import (
	"testing"
)

// Each family's FIM prompt, in its own tokens and order, picked by the
// model's name as Ollama, Hugging Face and llama.cpp users spell it.
func TestFamilyPrompts(t *testing.T) {
	p := &Prompt{Path: "a.go", Prefix: "P", Suffix: "S"}
	cases := []struct{ model, want string }{
		{"qwen2.5-coder:7b-base", "<|fim_prefix|>P<|fim_suffix|>S<|fim_middle|>"},
		{"Qwen/Qwen2.5-Coder-1.5B", "<|fim_prefix|>P<|fim_suffix|>S<|fim_middle|>"},
		{"deepseek-coder-v2:16b-lite-base", "<｜fim▁begin｜>P<｜fim▁hole｜>S<｜fim▁end｜>"},
		{"bigcode/starcoder2-15b", "<fim_prefix>P<fim_suffix>S<fim_middle>"},
		{"codestral:22b", "[SUFFIX]S[PREFIX]P"},
		{"codellama:7b-code", "<PRE> P <SUF>S <MID>"},
		{"codegemma:2b", "<|fim_prefix|>P<|fim_suffix|>S<|fim_middle|>"},
	}
	for _, c := range cases {
		f, ok := FamilyOf(c.model, "")
		if !ok {
			t.Errorf("%s: no family", c.model)
			continue
		}
		if got := f.Prompt(p); got != c.want {
			t.Errorf("%s (%s): %q, want %q", c.model, f.Name, got, c.want)
		}
		if len(f.Stop) == 0 {
			t.Errorf("%s: no stop tokens", f.Name)
		}
	}
	if _, ok := FamilyOf("llama3.1:8b", ""); ok {
		t.Error("a chat model got a FIM family")
	}
	if f, ok := FamilyOf("my-finetune", "starcoder"); !ok || f.Name != "starcoder" {
		t.Error("completion.template does not name the family")
	}
	if _, ok := FamilyOf("qwen2.5-coder", "none"); ok {
		t.Error(`template "none" still picks a family`)
	}
}

// Context files go in the family's repository format where it has one,
// else as comments in the document's language.
func TestFamilyContext(t *testing.T) {
	p := &Prompt{Repo: "r", Path: "a.py", Prefix: "P", Suffix: "S", Context: []Chunk{{Path: "b.py", Text: "x = 1"}}}
	q, _ := FamilyOf("qwen2.5-coder", "")
	if got, want := q.Prompt(p), "<|repo_name|>r\n<|file_sep|>b.py\nx = 1\n<|file_sep|>a.py\n<|fim_prefix|>P<|fim_suffix|>S<|fim_middle|>"; got != want {
		t.Errorf("qwen: %q, want %q", got, want)
	}
	d, _ := FamilyOf("deepseek-coder", "")
	if got, want := d.Prompt(p), "<｜fim▁begin｜># Path: b.py\n# x = 1\n# Path: a.py\nP<｜fim▁hole｜>S<｜fim▁end｜>"; got != want {
		t.Errorf("deepseek: %q, want %q", got, want)
	}
}
