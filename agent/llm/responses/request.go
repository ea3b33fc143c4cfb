package responses

import (
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// head is the request up to its input, in the order sent. input is the
// last field, so a request body minus its closing "]}" is a byte prefix
// of the next request of the same session (the prompt cache's prefix).
type head struct {
	Model        string     `json:"model"`
	Instructions string     `json:"instructions,omitempty"`
	Stream       bool       `json:"stream"`
	Store        bool       `json:"store"`
	Include      []string   `json:"include,omitempty"`
	MaxOutput    int        `json:"max_output_tokens,omitempty"`
	Reasoning    *reasoning `json:"reasoning,omitempty"`
	CacheKey     string     `json:"prompt_cache_key,omitempty"`
	Tools        []tool     `json:"tools,omitempty"`
}

type reasoning struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary"`
}

type tool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// encode serializes req deterministically, in segments sent back to back;
// the head and the encodings of messages an earlier request shared are
// reused (llm.PrefixCache).
func (p *Provider) encode(req *llm.Request) ([][]byte, error) {
	h, err := p.prefix.Head(req, func() ([]byte, error) { return encodeHead(req) })
	if err != nil {
		return nil, err
	}
	body, err := p.prefix.Encode(h, req.Messages, appendMessage)
	if err != nil {
		return nil, err
	}
	return append(body, []byte("]}")), nil
}

func encodeHead(req *llm.Request) ([]byte, error) {
	// store:false keeps nothing on OpenAI's side (the history is ours, as
	// on every wire), so a reasoning model's reasoning survives to the
	// next turn only as the encrypted items it is asked to include.
	h := head{Model: req.Model, Instructions: req.System, Stream: true, MaxOutput: req.MaxTokens, CacheKey: req.CacheKey}
	// Only models known to reason get the reasoning fields: the API
	// rejects them for the others.
	if models.Reasons(req.Model) {
		h.Include = []string{"reasoning.encrypted_content"}
		h.Reasoning = &reasoning{Summary: "auto"}
		if e := req.Effort; e != "" && e != llm.EffortOff {
			h.Reasoning.Effort = string(e)
		}
	}
	for _, t := range req.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		h.Tools = append(h.Tools, tool{Type: "function", Name: t.Name, Description: t.Description, Parameters: schema})
	}
	b, err := llm.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("responses: encoding request: %w", err)
	}
	// Reopen the object for the input array.
	return append(b[:len(b)-1], `,"input":[`...), nil
}

// Input items. Field order is the wire order; encoding/json keeps it.
type message struct {
	Type    string    `json:"type"`
	Role    string    `json:"role"`
	Content []content `json:"content"`
}

type content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
}

type functionCall struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// reasoningItem is sent back without its id: with store:false the server
// has no item of that id to find, and the encrypted content is all it needs.
type reasoningItem struct {
	Type             string          `json:"type"`
	Summary          json.RawMessage `json:"summary"`
	EncryptedContent string          `json:"encrypted_content"`
}

type summaryText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// summaryExtra is the Extra key holding a reasoning item's summary parts
// when it had more than one, so they are sent back as they came.
const summaryExtra = "summary"

// appendMessage appends the input items of history message i to dst,
// each after a comma unless it opens the array.
func appendMessage(dst []byte, prev byte, i int, m *llm.Message) ([]byte, error) {
	var items []any
	var err error
	if m.Role == llm.RoleAssistant {
		items, err = assistant(m)
	} else {
		items, err = user(m)
	}
	if err != nil {
		return nil, fmt.Errorf("responses: message %d: %w", i, err)
	}
	for _, it := range items {
		b, err := llm.Marshal(it)
		if err != nil {
			return nil, fmt.Errorf("responses: message %d: %w", i, err)
		}
		if prev != '[' {
			dst = append(dst, ',')
		}
		dst = append(dst, b...)
		prev = '}'
	}
	return dst, nil
}

// user turns a neutral user message into a function_call_output per tool
// result, then one user message of its text and images (a tool's images
// among them: an output item carries text only).
func user(m *llm.Message) ([]any, error) {
	var items []any
	var parts []content
	for _, p := range m.Content {
		switch p.Type {
		case llm.PartText:
			parts = append(parts, content{Type: "input_text", Text: p.Text})
		case llm.PartImage:
			parts = append(parts, image(p))
		case llm.PartToolResult:
			text := p.Text
			if p.IsError {
				text = "Error: " + text
			}
			items = append(items, functionOutput{Type: "function_call_output", CallID: p.ToolCallID, Output: text})
			if imgs := p.Images(); len(imgs) > 0 {
				parts = append(parts, content{Type: "input_text", Text: "Images returned by tool call " + p.ToolCallID + ":"})
				for _, img := range imgs {
					parts = append(parts, image(img))
				}
			}
		case llm.PartThinking, llm.PartToolUse:
			return nil, fmt.Errorf("%s part in a user message", p.Type)
		default:
			return nil, fmt.Errorf("unknown part type %q", p.Type)
		}
	}
	if len(parts) > 0 {
		items = append(items, message{Type: "message", Role: "user", Content: parts})
	}
	return items, nil
}

func image(p llm.Part) content {
	return content{Type: "input_image", ImageURL: "data:" + p.MediaType() + ";base64," + p.Data()}
}

// assistant sends the parts in their order: reasoning items, the text as
// an output message, function calls. A thinking part without encrypted
// content (one another wire produced) has nothing the server can use and
// is left out.
func assistant(m *llm.Message) ([]any, error) {
	var items []any
	for _, p := range m.Content {
		switch p.Type {
		case llm.PartThinking:
			if o := p.Origin(); p.Signature() == "" || o != "" && o != llm.OriginOpenAI {
				continue // nothing the server can use, or another family's
			}
			summary := p.Extra()[summaryExtra]
			if summary == nil {
				s := []summaryText{}
				if p.Text != "" {
					s = append(s, summaryText{Type: "summary_text", Text: p.Text})
				}
				b, err := llm.Marshal(s)
				if err != nil {
					return nil, err
				}
				summary = b
			}
			items = append(items, reasoningItem{Type: "reasoning", Summary: summary, EncryptedContent: p.Signature()})
		case llm.PartText:
			items = append(items, message{Type: "message", Role: "assistant", Content: []content{{Type: "output_text", Text: p.Text}}})
		case llm.PartToolUse:
			args := string(p.Input)
			if args == "" {
				args = "{}"
			}
			items = append(items, functionCall{Type: "function_call", CallID: p.ToolCallID, Name: p.ToolName, Arguments: args})
		default:
			return nil, fmt.Errorf("%s part in an assistant message", p.Type)
		}
	}
	return items, nil
}
