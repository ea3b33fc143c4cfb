package llm

// Thinking budgets per effort level, for the wires that take a token
// budget rather than a level (Anthropic's extended thinking, on its own
// API and through Bedrock and Vertex). AnswerTokens is the room left for
// the answer when the output limit would not exceed the budget.
const (
	budgetLow    = 2048
	budgetMedium = 8192
	budgetHigh   = 24576
	AnswerTokens = 8192
)

// Budget is e's thinking budget in tokens; 0 for off and for "" (the
// provider's configured default applies).
func (e Effort) Budget() int {
	switch e {
	case EffortLow:
		return budgetLow
	case EffortMedium:
		return budgetMedium
	case EffortHigh:
		return budgetHigh
	}
	return 0
}
