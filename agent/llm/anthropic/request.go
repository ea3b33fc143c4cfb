package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
)

// The wire structs fix the field order of every request. messages comes
// last so that a request's body, minus its closing "]}", is a byte prefix
// of the next request's body (modulo the moving cache_control marker).
type wireRequest struct {
	// Version replaces Model where the URL names the model (Vertex).
	Version   string        `json:"anthropic_version,omitempty"`
	Model     string        `json:"model,omitempty"`
	MaxTokens int           `json:"max_tokens"`
	Stream    bool          `json:"stream"`
	Thinking  *wireThinking `json:"thinking,omitempty"`
	System    []textBlock   `json:"system,omitempty"`
	Tools     []wireTool    `json:"tools,omitempty"`
	Messages  []wireMessage `json:"messages"`
}

type wireThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

// cacheControl marks a prompt-cache breakpoint. It is always the last
// field of a block so a test can strip it as one literal string.
type cacheControl struct {
	Type string `json:"type"`
}

var ephemeral = &cacheControl{Type: "ephemeral"}

type wireTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type wireMessage struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type textBlock struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type imageBlock struct {
	Type         string        `json:"type"`
	Source       imageSource   `json:"source"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

// Thinking blocks may not carry cache_control, so they have no such field.
type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type redactedBlock struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

type toolUseBlock struct {
	Type         string          `json:"type"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type toolResultBlock struct {
	Type         string        `json:"type"`
	ToolUseID    string        `json:"tool_use_id"`
	Content      []any         `json:"content,omitempty"`
	IsError      bool          `json:"is_error,omitempty"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

// thinkingBudget is the budget for effort e; "" keeps the configured one.
func thinkingBudget(e llm.Effort, configured int) int {
	if e == "" {
		return configured
	}
	return e.Budget()
}

// encode serializes req deterministically, in segments sent back to back:
// same history, same bytes. What comes before the messages is encoded
// once for as long as it stays the same.
func (p *Provider) encode(req *llm.Request) ([][]byte, error) {
	head, err := p.prefix.Head(req, func() ([]byte, error) { return p.encodeHead(req) })
	if err != nil {
		return nil, err
	}
	return p.encodeMessages(head, req.Messages)
}

// encodeHead encodes req up to and including `"messages":[`.
func (p *Provider) encodeHead(req *llm.Request) ([]byte, error) {
	w := wireRequest{Model: req.Model, MaxTokens: req.MaxTokens, Stream: true}
	if p.opts.BodyVersion != "" {
		w.Version, w.Model = p.opts.BodyVersion, ""
	}
	if w.MaxTokens <= 0 {
		w.MaxTokens = p.opts.MaxTokens
	}
	if budget := thinkingBudget(req.Effort, p.opts.ThinkingBudget); budget > 0 {
		w.Thinking = &wireThinking{Type: "enabled", BudgetTokens: budget}
		if w.MaxTokens <= budget {
			// The budget counts against max_tokens and must stay below it.
			w.MaxTokens = budget + llm.AnswerTokens
		}
	}
	if req.System != "" {
		w.System = []textBlock{{Type: "text", Text: req.System, CacheControl: ephemeral}}
	}
	for _, t := range req.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		w.Tools = append(w.Tools, wireTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	if n := len(w.Tools); n > 0 {
		w.Tools[n-1].CacheControl = ephemeral
	}
	// Everything before the messages is encoded whole; the messages are
	// spliced in after `"messages":[`, mostly from the prefix cache.
	w.Messages = []wireMessage{}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("anthropic: encoding request: %w", err)
	}
	head, ok := bytes.CutSuffix(buf.Bytes(), []byte("]}\n"))
	if !ok {
		return nil, fmt.Errorf("anthropic: encoding request: messages not last")
	}
	return head, nil
}

// markLast puts the moving cache breakpoint on the last block of the last
// message that can carry one, so each request reads the previous prefix
// from the cache and writes the new one.
func markLast(msgs []wireMessage) {
	if len(msgs) == 0 {
		return
	}
	content := msgs[len(msgs)-1].Content
	for i := len(content) - 1; i >= 0; i-- {
		switch b := content[i].(type) {
		case *textBlock:
			b.CacheControl = ephemeral
		case *imageBlock:
			b.CacheControl = ephemeral
		case *toolUseBlock:
			b.CacheControl = ephemeral
		case *toolResultBlock:
			b.CacheControl = ephemeral
		default:
			continue
		}
		return
	}
}

func encodeParts(parts []llm.Part) ([]any, error) {
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		switch p.Type {
		case llm.PartText:
			// The API rejects empty text blocks; they carry nothing anyway.
			if p.Text != "" {
				out = append(out, &textBlock{Type: "text", Text: p.Text})
			}
		case llm.PartImage:
			out = append(out, encodeImage(p))
		case llm.PartThinking:
			switch o := p.Origin(); {
			case o != "" && o != llm.OriginAnthropic:
				// Another family's thinking: Anthropic cannot check it.
			case p.Redacted() != "":
				out = append(out, &redactedBlock{Type: "redacted_thinking", Data: p.Redacted()})
			case p.Signature() != "":
				out = append(out, &thinkingBlock{Type: "thinking", Thinking: p.Text, Signature: p.Signature()})
			}
			// Unsigned thinking (from another provider) cannot be replayed here.
		case llm.PartToolUse:
			input := p.Input
			if !llm.IsObject(input) { // malformed arguments the model sent: they were answered with an error
				input = json.RawMessage(`{}`)
			}
			out = append(out, &toolUseBlock{Type: "tool_use", ID: p.ToolCallID, Name: p.ToolName, Input: input})
		case llm.PartToolResult:
			b := &toolResultBlock{Type: "tool_result", ToolUseID: p.ToolCallID, IsError: p.IsError}
			if p.Text != "" {
				b.Content = append(b.Content, &textBlock{Type: "text", Text: p.Text})
			}
			for _, img := range p.Images() {
				b.Content = append(b.Content, encodeImage(img))
			}
			out = append(out, b)
		default:
			return nil, fmt.Errorf("unknown part type %q", p.Type)
		}
	}
	return out, nil
}

func encodeImage(p llm.Part) *imageBlock {
	return &imageBlock{Type: "image", Source: imageSource{Type: "base64", MediaType: p.MediaType(), Data: p.Data()}}
}
