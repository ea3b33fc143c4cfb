// Package models knows the limits and prices of model ids: each model's
// context window and output limit (a built-in table, what a server
// reports, and the user's overrides), the price per token of common hosted
// models, and a cheap estimate of a request's token count that learns from
// what the provider reported. Compaction and usage reporting read it.
//
// It must never send a model request; its only I/O is the optional
// metadata lookup in Discover.
package models

import "strings"

// Limits are a model's token limits. Zero means unknown.
type Limits struct {
	Context int // the context window: input and output together
	Output  int // the most output tokens one response may have
}

// family is one row of the built-in table: ids that start with prefix.
type family struct {
	prefix string
	limits Limits
}

// builtin is ordered longest prefix first within a family, so the most
// specific row wins; lookup picks the longest matching prefix anyway.
// Figures are the providers' published limits; open-weight models list
// what their servers commonly run with when nothing else is known.
var builtin = []family{
	// Anthropic Claude 4.x (and the 3.x ids people still configure).
	{"claude-opus-4", Limits{200_000, 32_000}},
	{"claude-opus-4-5", Limits{200_000, 64_000}},
	{"claude-sonnet-4", Limits{200_000, 64_000}},
	{"claude-haiku-4", Limits{200_000, 64_000}},
	{"claude-3-7-sonnet", Limits{200_000, 64_000}},
	{"claude-3-5", Limits{200_000, 8_192}},
	{"claude", Limits{200_000, 8_192}},
	// OpenAI.
	{"gpt-5", Limits{400_000, 128_000}},
	{"gpt-4.1", Limits{1_047_576, 32_768}},
	{"gpt-4o", Limits{128_000, 16_384}},
	{"o1", Limits{200_000, 100_000}},
	{"o3", Limits{200_000, 100_000}},
	{"o4-mini", Limits{200_000, 100_000}},
	// Google Gemini (the models listing reports these too).
	{"gemini-3", Limits{1_048_576, 65_536}},
	{"gemini-2.5", Limits{1_048_576, 65_536}},
	{"gemini-2.0", Limits{1_048_576, 8_192}},
	{"gemini", Limits{1_048_576, 8_192}},
	// Open-weight families behind OpenAI-compatible servers.
	{"deepseek", Limits{128_000, 8_192}},
	{"qwen3-coder", Limits{262_144, 65_536}},
	{"qwen3", Limits{131_072, 32_768}},
	{"qwen2.5-coder", Limits{131_072, 8_192}},
	{"qwen", Limits{32_768, 8_192}},
	{"llama-4", Limits{1_000_000, 16_384}},
	{"llama4", Limits{1_000_000, 16_384}},
	{"llama3.1", Limits{131_072, 8_192}},
	{"llama-3.1", Limits{131_072, 8_192}},
	{"llama3.2", Limits{131_072, 8_192}},
	{"llama-3.2", Limits{131_072, 8_192}},
	{"llama3.3", Limits{131_072, 8_192}},
	{"llama-3.3", Limits{131_072, 8_192}},
	{"llama3", Limits{8_192, 4_096}},
	{"llama-3", Limits{8_192, 4_096}},
	{"gemma3", Limits{131_072, 8_192}},
	{"gemma-3", Limits{131_072, 8_192}},
	{"gemma", Limits{8_192, 4_096}},
	{"codestral", Limits{256_000, 8_192}},
	{"devstral", Limits{131_072, 8_192}},
	{"mistral-large", Limits{131_072, 8_192}},
	{"mistral-small", Limits{131_072, 8_192}},
	{"mistral", Limits{32_768, 8_192}},
}

// Builtin returns the table's limits for id. Ids are matched without case,
// after dropping a vendor path ("meta-llama/Llama-3.1-8B" is "llama-3.1-8b")
// and an Ollama tag's dash-free spelling is tried too ("llama3.1:8b").
// The longest matching prefix wins.
func Builtin(id string) (Limits, bool) {
	key := normalize(id)
	best := -1
	for i, f := range builtin {
		if strings.HasPrefix(key, f.prefix) && (best < 0 || len(f.prefix) > len(builtin[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Limits{}, false
	}
	return builtin[best].limits, true
}

// normalize lowers id and drops a provider or vendor path before the last
// slash ("openai/gpt-5", "Qwen/Qwen3-32B") and Bedrock's vendor prefix,
// with an inference profile's geography before it
// ("us.anthropic.claude-sonnet-4-20250514-v1:0").
func normalize(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	for _, geo := range []string{"us.", "eu.", "apac.", "jp.", "au.", "ca.", "us-gov.", "global.", ""} {
		rest, ok := strings.CutPrefix(id, geo)
		if !ok {
			continue
		}
		for _, vendor := range bedrockVendors {
			if m, ok := strings.CutPrefix(rest, vendor+"."); ok {
				return m
			}
		}
	}
	return id
}

// bedrockVendors are the providers whose names lead Bedrock's model ids.
var bedrockVendors = []string{"anthropic", "amazon", "meta", "mistral", "cohere", "ai21", "deepseek", "openai", "qwen", "writer"}

// reasoners are the id prefixes of models that take a reasoning level
// (Anthropic's extended thinking, OpenAI's reasoning_effort).
var reasoners = []string{"claude-opus-4", "claude-sonnet-4", "claude-haiku-4", "claude-3-7-sonnet", "gpt-5", "o1", "o3", "o4", "gemini-2.5", "gemini-3"}

// Reasons reports whether model id takes a reasoning level.
func Reasons(id string) bool {
	key := normalize(id)
	for _, p := range reasoners {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
