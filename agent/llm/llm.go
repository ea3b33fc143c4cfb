// Package llm is the seam between the agent and a model provider: the
// provider-neutral conversation types, the streaming Provider interface and
// the errors a provider reports.
//
// Implementations live in subpackages (anthropic, openai, responses,
// gemini, vertex); the agent never imports them. llmtest serves both wire formats over real HTTP for tests.
// This package must never do I/O of its own: Post and SSEReader are
// helpers a provider calls with its own request and response body.
package llm

import (
	"context"
	"encoding/json"
	"fmt"
)

// Provider streams one model response. Stream calls emit for every event in
// the order the server produced them, and returns the assembled assistant
// message exactly as it must be sent back on the next request (thinking
// blocks with their signatures, provider extras such as reasoning_content).
//
// A Provider is safe for concurrent use by many sessions.
type Provider interface {
	// Name is the provider's short name ("anthropic", "openai"), used in
	// errors and logs.
	Name() string
	Stream(ctx context.Context, req *Request, emit func(Event)) (*Response, error)
}

// Readier is implemented by a Provider that may not be usable yet: one
// waiting for the user to log in. Ready returns ErrNotConfigured until it
// can send a request; front doors turn that into their "log in" answer
// before a prompt touches the history.
type Readier interface {
	Ready() error
}

// Forgetter is implemented by a Provider built from configuration that can
// change under it, the stored login: Forget drops what it built, so the
// next request reads the configuration again (after a logout, a key the
// user removed is not used any longer).
type Forgetter interface {
	Forget()
}

// Request is one model request. The Messages slice is the whole history;
// providers must serialize it deterministically so that consecutive requests
// of a session share a byte-identical prefix (provider prompt caches depend
// on it).
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
	// Effort is how hard a reasoning model thinks before it answers; ""
	// leaves it to the provider's configuration.
	Effort Effort
	// CacheKey names the conversation for providers that route requests
	// to a prompt cache by a key of the caller's (OpenAI's
	// prompt_cache_key): the same for every request of a session.
	CacheKey string
}

// Effort is a reasoning level: Anthropic's thinking budget, OpenAI's
// reasoning_effort.
type Effort string

const (
	EffortOff    Effort = "off"
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
)

// Efforts lists the levels in order.
func Efforts() []Effort { return []Effort{EffortOff, EffortLow, EffortMedium, EffortHigh} }

// ParseEffort checks a level's name; "" is allowed and means the default.
func ParseEffort(s string) (Effort, error) {
	switch e := Effort(s); e {
	case "", EffortOff, EffortLow, EffortMedium, EffortHigh:
		return e, nil
	}
	return "", fmt.Errorf("unknown thought level %q: use off, low, medium or high", s)
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Role is who said a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one conversation turn in provider-neutral form.
type Message struct {
	Role    Role   `json:"role"`
	Content []Part `json:"content"`
}

// PartType discriminates Part.
type PartType string

const (
	PartText       PartType = "text"
	PartImage      PartType = "image"
	PartThinking   PartType = "thinking"
	PartToolUse    PartType = "tool_use"
	PartToolResult PartType = "tool_result"
)

// Part is one block of a message. Which fields are set depends on Type.
type Part struct {
	Type PartType `json:"type"`

	// text, thinking (the reasoning text), tool_result (the output)
	Text string `json:"text,omitempty"`

	// tool_use and tool_result
	ToolCallID string          `json:"tool_call_id,omitempty"`
	ToolName   string          `json:"tool_name,omitempty"`
	Input      json.RawMessage `json:"input,omitempty"`
	IsError    bool            `json:"is_error,omitempty"`

	// The fields few parts set, nil when a part sets none of them but for
	// an empty PartRare (Rare can leave one), which means the same: test
	// them with the methods, not the pointer. A long history is mostly
	// text and tool parts, and holding these inline would take half of
	// every part (192 bytes, not 104). Read them through the methods of
	// the same names, which a nil PartRare answers with zero values; set
	// them in a literal (PartRare: &PartRare{...}) or through Rare.
	// Embedded, so a part's JSON (the session log's shape) is what it was
	// when they were inline.
	*PartRare
}

// Text returns a user message holding one text part.
func Text(role Role, s string) Message {
	return Message{Role: role, Content: []Part{{Type: PartText, Text: s}}}
}

// EventType discriminates Event.
type EventType string

const (
	EventText          EventType = "text"            // Text: a delta of visible output
	EventReasoning     EventType = "reasoning"       // Text: a delta of reasoning/thinking
	EventToolCallStart EventType = "tool_call_start" // ToolCallID, ToolName
	EventToolCallDelta EventType = "tool_call_delta" // ToolCallID, Text: a fragment of the JSON arguments
	EventToolCallEnd   EventType = "tool_call_end"   // ToolCallID, Input: the complete arguments
	EventUsage         EventType = "usage"           // Usage
	EventStop          EventType = "stop"            // StopReason
)

// Event is one streamed piece of a response.
type Event struct {
	Type       EventType
	Text       string
	ToolCallID string
	ToolName   string
	Input      json.RawMessage
	Usage      Usage
	StopReason StopReason
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	StopRefusal   StopReason = "refusal"
)

// Usage counts one response's tokens. InputTokens excludes the cached
// ones, for every provider; ReasoningTokens are part of OutputTokens (the
// provider bills them as output) and say how many of them were thinking.
// Fields a provider does not report are zero.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens,
		CacheReadTokens: u.CacheReadTokens + v.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		ReasoningTokens: u.ReasoningTokens + v.ReasoningTokens}
}

// Response is the outcome of one Stream call.
type Response struct {
	Message    Message
	StopReason StopReason
	Usage      Usage
}

// ToolCalls returns the tool_use parts of the response, in order.
func (r *Response) ToolCalls() []Part {
	var calls []Part
	for _, p := range r.Message.Content {
		if p.Type == PartToolUse {
			calls = append(calls, p)
		}
	}
	return calls
}
