package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// Format is a wire format the server speaks.
type Format string

const (
	Anthropic Format = "anthropic"
	OpenAI    Format = "openai"
	// Responses is OpenAI's Responses API (POST /v1/responses).
	Responses Format = "openai-responses"
	// Bedrock is Amazon Bedrock's ConverseStream (POST
	// /model/{id}/converse-stream), SigV4-signed, answered in AWS's
	// event-stream framing.
	Bedrock Format = "bedrock"
	// AzureResponses and AzureChat are the OpenAI wires as Azure OpenAI
	// serves them: under /openai/ (v1 or deployments paths, api-version),
	// an api-key header, Azure's error bodies.
	AzureResponses Format = "azure-responses"
	AzureChat      Format = "azure-chat"
)

// wire is the body format f speaks: Azure's are OpenAI's.
func (f Format) wire() Format {
	switch f {
	case AzureResponses:
		return Responses
	case AzureChat:
		return OpenAI
	}
	return f
}

// Reply scripts one response. Streamed content comes in this order:
// reasoning, text, tool calls; then the stop reason and usage. The JSON
// field names are the ones the fakellm script uses.
type Reply struct {
	Reasoning []string   `json:"reasoning,omitempty"` // reasoning/thinking chunks
	Text      []string   `json:"text,omitempty"`      // text chunks, streamed one delta each
	Echo      bool       `json:"echo,omitempty"`      // add the last user message's text as a final text chunk
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`

	// Stop is a neutral stop reason (end_turn, tool_use, max_tokens,
	// refusal) or a raw wire value sent as is (e.g. "stop_sequence").
	// Empty: tool_use when there are tool calls, else end_turn.
	Stop  string     `json:"stop,omitempty"`
	Usage *llm.Usage `json:"usage,omitempty"` // default: 10 input, 5 output tokens

	// Status answers with this HTTP error instead of a stream, Times times
	// in a row (0 and 1: once; negative: every request from now on).
	Status     int    `json:"status,omitempty"`
	Times      int    `json:"times,omitempty"`
	RetryAfter string `json:"retry_after,omitempty"` // Retry-After header value
	Message    string `json:"message,omitempty"`     // error message, in the format's error JSON
	Body       string `json:"body,omitempty"`        // raw error body, overrides Message

	// Raw is sent verbatim as the text/event-stream body, for wire shapes
	// the other fields cannot express (other servers' quirks).
	Raw string `json:"raw,omitempty"`

	// StreamError sends an error event after the content, instead of finishing.
	StreamError string `json:"stream_error,omitempty"`
	// StreamErrorCode is the error event's code (Responses: "server_error"
	// by default) or exception type (Bedrock: "internalServerException").
	StreamErrorCode string `json:"stream_error_code,omitempty"`
	// CutAfter > 0 aborts the connection after that many events, in the
	// middle of the next event's JSON.
	CutAfter int `json:"cut_after,omitempty"`
	// NoFinish ends the stream cleanly after the content, without the stop
	// events (message_stop / [DONE]).
	NoFinish bool `json:"no_finish,omitempty"`
	// Hang stops after the content and waits until the client goes away.
	Hang bool `json:"hang,omitempty"`
	// Delay is slept before every event.
	Delay Duration `json:"delay,omitempty"`

	// Anthropic only: the thinking block's signature (default "sig-" plus
	// the reasoning length) and a redacted_thinking block sent before it.
	Signature        string `json:"signature,omitempty"`
	RedactedThinking string `json:"redacted_thinking,omitempty"`

	// OpenAI only, to imitate other servers: the delta field carrying
	// reasoning ("reasoning_content" by default, or "reasoning"), tool
	// call deltas without "index", and each tool call in a single chunk.
	ReasoningField string `json:"reasoning_field,omitempty"`
	OmitIndex      bool   `json:"omit_index,omitempty"`
	WholeCalls     bool   `json:"whole_calls,omitempty"`
}

// ToolCall scripts one tool call.
type ToolCall struct {
	ID   string `json:"id,omitempty"` // default "call_<request>_<n>", unique per server
	Name string `json:"name"`
	// Args is the JSON arguments text, streamed in Split pieces (default 1).
	Args  string `json:"args,omitempty"`
	Split int    `json:"split,omitempty"`
}

// Duration is a time.Duration that reads "10ms" (or a number of
// milliseconds) from JSON.
type Duration time.Duration

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("llmtest: duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	var ms float64
	if err := json.Unmarshal(b, &ms); err != nil {
		return fmt.Errorf("llmtest: duration must be a string like \"10ms\" or milliseconds: %s", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// chunks splits s into n nearly equal pieces (on byte boundaries that do
// not cut a UTF-8 sequence).
func chunks(s string, n int) []string {
	if n <= 1 || len(s) <= 1 {
		return []string{s}
	}
	n = min(n, len(s))
	var out []string
	for i := n; i > 0; i-- {
		size := len(s) / i
		for size < len(s) && !startsRune(s, size) {
			size++
		}
		if size > 0 {
			out = append(out, s[:size])
		}
		s = s[size:]
	}
	return out
}

func startsRune(s string, i int) bool { return i == 0 || i >= len(s) || s[i]&0xC0 != 0x80 }

func (r *Reply) usage() llm.Usage {
	if r.Usage != nil {
		return *r.Usage
	}
	return llm.Usage{InputTokens: 10, OutputTokens: 5}
}

// stop returns the stop reason in neutral form, or raw when unknown.
func (r *Reply) stop() string {
	if r.Stop != "" {
		return r.Stop
	}
	if len(r.ToolCalls) > 0 {
		return string(llm.StopToolUse)
	}
	return string(llm.StopEndTurn)
}

func (r *Reply) callID(req *Request, i int) string {
	if id := r.ToolCalls[i].ID; id != "" {
		return id
	}
	return fmt.Sprintf("call_%d_%d", req.N, i+1)
}

func (r *Reply) text(req *Request) []string {
	if r.Echo {
		return append(append([]string(nil), r.Text...), req.LastUserText())
	}
	return r.Text
}

func (r *Reply) signature() string {
	if r.Signature != "" {
		return r.Signature
	}
	return fmt.Sprintf("sig-%d", len(strings.Join(r.Reasoning, "")))
}
