package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// encode serializes req deterministically, in segments sent back to back.
// messages is the last field, so a request body minus its closing "]}" is
// a byte prefix of the next request of the same session. What comes
// before the history is encoded once for as long as it stays the same.
func (p *Provider) encode(req *llm.Request) ([][]byte, error) {
	head, err := p.prefix.Head(req, func() ([]byte, error) { return p.encodeHead(req) })
	if err != nil {
		return nil, err
	}
	body, err := p.prefix.Encode(head, req.Messages, p.appendMessage)
	if err != nil {
		return nil, err
	}
	return append(body, []byte("]}")), nil
}

// encodeHead encodes req up to the history: the fields, `"messages":[`
// and the system message.
func (p *Provider) encodeHead(req *llm.Request) ([]byte, error) {
	var o object
	o.field("model", req.Model)
	o.field("stream", true)
	o.field("stream_options", map[string]bool{"include_usage": true})
	if req.MaxTokens > 0 {
		o.field(p.opts.MaxTokensField, req.MaxTokens)
	}
	// Only models known to reason get the field: other OpenAI-compatible
	// servers reject what they do not know.
	if e := req.Effort; e != "" && e != llm.EffortOff && models.Reasons(req.Model) {
		o.field("reasoning_effort", string(e))
	}
	if len(req.Tools) > 0 {
		tools := make([]wireTool, len(req.Tools))
		for i, t := range req.Tools {
			schema := t.InputSchema
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			tools[i] = wireTool{Type: "function", Function: wireFunction{Name: t.Name, Description: t.Description, Parameters: schema}}
		}
		o.field("tools", tools)
	}
	if o.err != nil {
		return nil, fmt.Errorf("openai: encoding request: %w", o.err)
	}
	head := append(o.buf.Bytes(), `,"messages":[`...)
	if req.System != "" {
		head = append(head, mustMarshal(textMessage{Role: "system", Content: req.System})...)
	}
	return head, nil
}

// appendMessage appends the wire messages of history message i to dst,
// each after a comma unless it opens the array (prev, the byte before it,
// is the array's "[").
func (p *Provider) appendMessage(dst []byte, prev byte, i int, m *llm.Message) ([]byte, error) {
	var out []json.RawMessage
	var err error
	if m.Role == llm.RoleAssistant {
		out, err = p.assistant(*m)
	} else {
		out, err = user(*m)
	}
	if err != nil {
		return nil, fmt.Errorf("openai: message %d: %w", i, err)
	}
	for _, w := range out {
		if prev != '[' {
			dst = append(dst, ',')
		}
		dst = append(dst, w...)
		prev = '}'
	}
	return dst, nil
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type textMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type toolMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type partsMessage struct {
	Role    string        `json:"role"`
	Content []contentPart `json:"content"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// user turns one neutral user message into wire messages: a "tool" message
// per tool result (they must directly follow the assistant's calls), then
// one user message with the remaining text and images. The tool role
// cannot carry images, so a result's images ride in that user message.
func user(m llm.Message) ([]json.RawMessage, error) {
	var out []json.RawMessage
	var parts []contentPart
	for _, p := range m.Content {
		switch p.Type {
		case llm.PartText:
			parts = append(parts, contentPart{Type: "text", Text: p.Text})
		case llm.PartImage:
			parts = append(parts, imagePart(p))
		case llm.PartToolResult:
			text := p.Text
			if p.IsError {
				text = "Error: " + text
			}
			out = append(out, mustMarshal(toolMessage{Role: "tool", ToolCallID: p.ToolCallID, Content: text}))
			if len(p.Images()) > 0 {
				parts = append(parts, contentPart{Type: "text", Text: "Images returned by tool call " + p.ToolCallID + ":"})
				for _, img := range p.Images() {
					parts = append(parts, imagePart(img))
				}
			}
		case llm.PartThinking, llm.PartToolUse:
			return nil, fmt.Errorf("%s part in a user message", p.Type)
		default:
			return nil, fmt.Errorf("unknown part type %q", p.Type)
		}
	}
	switch {
	case len(parts) == 1 && parts[0].Type == "text":
		out = append(out, mustMarshal(textMessage{Role: "user", Content: parts[0].Text}))
	case len(parts) > 0:
		out = append(out, mustMarshal(partsMessage{Role: "user", Content: parts}))
	}
	return out, nil
}

func imagePart(p llm.Part) contentPart {
	return contentPart{Type: "image_url", ImageURL: &imageURL{URL: "data:" + p.MediaType() + ";base64," + p.Data()}}
}

// assistant writes role, content, the replayed extras (sorted by key) and
// tool_calls, in that order.
func (p *Provider) assistant(m llm.Message) ([]json.RawMessage, error) {
	var text string
	var calls []wireToolCall
	extra := map[string]json.RawMessage{}
	for _, part := range m.Content {
		switch part.Type {
		case llm.PartText:
			text += part.Text
		case llm.PartThinking:
			if !p.opts.DropReasoning {
				maps.Copy(extra, part.Extra())
			}
		case llm.PartToolUse:
			var c wireToolCall
			c.ID, c.Type = part.ToolCallID, "function"
			c.Function.Name = part.ToolName
			c.Function.Arguments = string(part.Input)
			if c.Function.Arguments == "" {
				c.Function.Arguments = "{}"
			}
			calls = append(calls, c)
		default:
			return nil, fmt.Errorf("%s part in an assistant message", part.Type)
		}
	}
	var o object
	o.field("role", "assistant")
	if text == "" && len(calls) > 0 {
		o.field("content", nil)
	} else {
		o.field("content", text)
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		if k == "role" || k == "content" || k == "tool_calls" {
			continue
		}
		o.field(k, extra[k])
	}
	if len(calls) > 0 {
		o.field("tool_calls", calls)
	}
	if o.err != nil {
		return nil, o.err
	}
	return []json.RawMessage{o.bytes()}, nil
}

// object writes a JSON object with fields in call order (encoding/json
// sorts map keys and fixes struct order; we need both dynamic names and a
// fixed order).
type object struct {
	buf bytes.Buffer
	err error
}

func (o *object) field(k string, v any) {
	if o.err != nil {
		return
	}
	if o.buf.Len() == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	b, err := llm.Marshal(k)
	if err == nil {
		o.buf.Write(b)
		o.buf.WriteByte(':')
		b, err = llm.Marshal(v)
		o.buf.Write(b)
	}
	o.err = err
}

func (o *object) bytes() []byte {
	if o.buf.Len() == 0 {
		return []byte("{}")
	}
	return append(o.buf.Bytes(), '}')
}

// mustMarshal is for the fixed wire structs above, which cannot fail.
func mustMarshal(v any) json.RawMessage {
	b, err := llm.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("openai: marshal %T: %v", v, err))
	}
	return b
}
