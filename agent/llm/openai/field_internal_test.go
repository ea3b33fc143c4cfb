package openai

import "testing"

func TestMaxTokensField(t *testing.T) {
	for base, want := range map[string]string{
		DefaultBaseURL:                   "max_completion_tokens",
		"https://API.openai.com/v1/":     "max_completion_tokens",
		"http://localhost:11434/v1":      "max_tokens",
		"https://api.deepseek.com/v1":    "max_tokens",
		"https://openrouter.ai/api/v1":   "max_tokens",
		"https://api.openai.com.evil/v1": "max_tokens",
		"::not a url":                    "max_tokens",
	} {
		if got := New(Options{BaseURL: base}).opts.MaxTokensField; got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
	if got := New(Options{MaxTokensField: "max_tokens"}).opts.MaxTokensField; got != "max_tokens" {
		t.Errorf("an explicit field was replaced: %s", got)
	}
}
