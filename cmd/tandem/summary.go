package main

import (
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent"
)

// summary is the turn's usage on one line: tokens, the share of input
// served from the provider's cache, how full the context is, and the cost
// when the model's price is known. "" when no request was made.
func summary(t agent.UsageTotals, context *agent.ContextUsage) string {
	if t.Requests == 0 {
		return ""
	}
	parts := []string{
		plural(t.Requests, "request"),
		fmt.Sprintf("%s input tokens (%.0f%% cached)", thousands(t.PromptTokens()), 100*t.CacheHitRate()),
		thousands(t.OutputTokens) + " output",
	}
	if t.ReasoningTokens > 0 {
		parts[len(parts)-1] += fmt.Sprintf(" (%s reasoning)", thousands(t.ReasoningTokens))
	}
	if c := context; c != nil && c.Size > 0 {
		parts = append(parts, fmt.Sprintf("context %s/%s", thousands(c.Used), thousands(c.Size)))
	}
	if t.Priced {
		parts = append(parts, fmt.Sprintf("$%.4f", t.Cost))
	}
	return "tandem: " + strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// thousands writes n with comma separators: 1234567 is "1,234,567".
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
