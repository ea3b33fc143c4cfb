package models

import "github.com/tandemhq/tandem/agent/llm"

// Price is what a hosted model charges, in US dollars per million tokens.
// Reasoning tokens are billed as output and are already counted in it.
type Price struct {
	Input, Output, CacheRead, CacheWrite float64
}

// prices lists the common hosted models at their list prices; the longest
// matching prefix wins, as in the limits table. Local models cost nothing
// tandem can know, so they are absent and their cost is unknown.
var prices = []struct {
	prefix string
	price  Price
}{
	{"claude-opus-4-5", Price{5, 25, 0.5, 6.25}},
	{"claude-opus-4", Price{15, 75, 1.5, 18.75}},
	{"claude-sonnet-4", Price{3, 15, 0.3, 3.75}},
	{"claude-3-7-sonnet", Price{3, 15, 0.3, 3.75}},
	{"claude-haiku-4", Price{1, 5, 0.1, 1.25}},
	{"claude-3-5-haiku", Price{0.8, 4, 0.08, 1}},
	{"gpt-5-nano", Price{0.05, 0.4, 0.005, 0}},
	{"gpt-5-mini", Price{0.25, 2, 0.025, 0}},
	{"gpt-5", Price{1.25, 10, 0.125, 0}},
	{"gpt-4.1-nano", Price{0.1, 0.4, 0.025, 0}},
	{"gpt-4.1-mini", Price{0.4, 1.6, 0.1, 0}},
	{"gpt-4.1", Price{2, 8, 0.5, 0}},
	{"gpt-4o-mini", Price{0.15, 0.6, 0.075, 0}},
	{"gpt-4o", Price{2.5, 10, 1.25, 0}},
	{"o3", Price{2, 8, 0.5, 0}},
	{"o4-mini", Price{1.1, 4.4, 0.275, 0}},
}

// PriceOf returns model's price, if the table knows it.
func PriceOf(model string) (Price, bool) {
	key := normalize(model)
	best := -1
	for i, p := range prices {
		if len(key) >= len(p.prefix) && key[:len(p.prefix)] == p.prefix && (best < 0 || len(p.prefix) > len(prices[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Price{}, false
	}
	return prices[best].price, true
}

// Cost is what u cost at p, in dollars. u counts input without the cached
// tokens, as llm.Usage does for every provider.
func (p Price) Cost(u llm.Usage) float64 {
	const perToken = 1e-6
	return perToken * (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead + float64(u.CacheWriteTokens)*p.CacheWrite)
}
