package bedrock

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// head is the Converse request up to its messages, in the order sent.
// The model is in the URL. messages is the last field, so a body minus
// its closing "]}" and the moving cache point is a byte prefix of the
// next request of the same session.
type head struct {
	System          []block          `json:"system,omitempty"`
	InferenceConfig *inferenceConfig `json:"inferenceConfig,omitempty"`
	ToolConfig      *toolConfig      `json:"toolConfig,omitempty"`
	// Fields Bedrock hands to the model as they are: Claude's thinking.
	AdditionalModelRequestFields *additional `json:"additionalModelRequestFields,omitempty"`
}

type inferenceConfig struct {
	MaxTokens int `json:"maxTokens,omitempty"`
}

type toolConfig struct {
	Tools []toolEntry `json:"tools"`
}

type toolEntry struct {
	ToolSpec   *toolSpec   `json:"toolSpec,omitempty"`
	CachePoint *cachePoint `json:"cachePoint,omitempty"`
}

type toolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	InputSchema struct {
		JSON json.RawMessage `json:"json"`
	} `json:"inputSchema"`
}

type additional struct {
	Thinking *thinking `json:"thinking,omitempty"`
}

type thinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

type cachePoint struct {
	Type string `json:"type"`
}

// point is the cache point every cacheable place gets.
var point = &cachePoint{Type: "default"}

// block is one content block; exactly one field is set. Field order is
// the wire order.
type block struct {
	Text             *string           `json:"text,omitempty"`
	Image            *image            `json:"image,omitempty"`
	ToolUse          *toolUse          `json:"toolUse,omitempty"`
	ToolResult       *toolResult       `json:"toolResult,omitempty"`
	ReasoningContent *reasoningContent `json:"reasoningContent,omitempty"`
	CachePoint       *cachePoint       `json:"cachePoint,omitempty"`
}

type image struct {
	Format string `json:"format"`
	Source struct {
		Bytes string `json:"bytes"` // base64
	} `json:"source"`
}

type toolUse struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type toolResult struct {
	ToolUseID string  `json:"toolUseId"`
	Content   []block `json:"content"`
	Status    string  `json:"status,omitempty"`
}

type reasoningContent struct {
	ReasoningText   *reasoningText `json:"reasoningText,omitempty"`
	RedactedContent string         `json:"redactedContent,omitempty"`
}

type reasoningText struct {
	Text      string `json:"text"`
	Signature string `json:"signature,omitempty"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

func text(s string) block { return block{Text: &s} }

// caches reports whether requests for model get cache points: Bedrock
// refuses them for models without prompt caching, and Claude (3.5 Haiku,
// 3.7 Sonnet and later) and Nova have it.
func (p *Provider) caches(model string) bool {
	if p.opts.PromptCache != nil {
		return *p.opts.PromptCache
	}
	m := strings.ToLower(model)
	return strings.Contains(m, "anthropic.claude") || strings.Contains(m, "amazon.nova")
}

// encode serializes req deterministically, in segments sent back to back.
// The head and every message but the last come from the prefix cache; the
// last carries the moving cache point, as Anthropic's wire carries its
// moving breakpoint, so each request reads the previous prefix from the
// cache and writes the new one.
func (p *Provider) encode(req *llm.Request) ([][]byte, error) {
	cache := p.caches(req.Model)
	h, err := p.prefix.Head(req, func() ([]byte, error) { return p.encodeHead(req, cache) })
	if err != nil {
		return nil, err
	}
	msgs := req.Messages
	if len(msgs) == 0 {
		return [][]byte{h, []byte("]}")}, nil
	}
	body, err := p.prefix.Encode(h, msgs[:len(msgs)-1], func(dst []byte, prev byte, i int, m *llm.Message) ([]byte, error) {
		return appendMessage(dst, prev, i, m, false)
	})
	if err != nil {
		return nil, err
	}
	prev := byte('[')
	if len(msgs) > 1 {
		prev = '}'
	}
	tail, err := appendMessage(nil, prev, len(msgs)-1, &msgs[len(msgs)-1], cache)
	if err != nil {
		return nil, err
	}
	return append(body, append(tail, "]}"...)), nil
}

func (p *Provider) encodeHead(req *llm.Request, cache bool) ([]byte, error) {
	var h head
	if req.System != "" {
		h.System = []block{text(req.System)}
		if cache {
			h.System = append(h.System, block{CachePoint: point})
		}
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.opts.MaxTokens
	}
	if budget := req.Effort.Budget(); budget > 0 && claude(req.Model) {
		h.AdditionalModelRequestFields = &additional{Thinking: &thinking{Type: "enabled", BudgetTokens: budget}}
		// The budget counts against maxTokens and must stay below it.
		if maxTokens <= budget {
			maxTokens = budget + llm.AnswerTokens
		}
	}
	if maxTokens > 0 {
		h.InferenceConfig = &inferenceConfig{MaxTokens: maxTokens}
	}
	if len(req.Tools) > 0 {
		h.ToolConfig = &toolConfig{}
		for _, t := range req.Tools {
			s := &toolSpec{Name: t.Name, Description: t.Description}
			s.InputSchema.JSON = t.InputSchema
			if len(s.InputSchema.JSON) == 0 {
				s.InputSchema.JSON = json.RawMessage(`{"type":"object"}`)
			}
			h.ToolConfig.Tools = append(h.ToolConfig.Tools, toolEntry{ToolSpec: s})
		}
		if cache {
			h.ToolConfig.Tools = append(h.ToolConfig.Tools, toolEntry{CachePoint: point})
		}
	}
	b, err := llm.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("bedrock: encoding request: %w", err)
	}
	if len(b) > 2 {
		b = append(b[:len(b)-1], ',')
	} else {
		b = b[:1]
	}
	return append(b, `"messages":[`...), nil
}

// claude reports whether model is an Anthropic model, the ones that take
// a thinking budget through additionalModelRequestFields.
func claude(model string) bool { return strings.Contains(strings.ToLower(model), "claude") }

// appendMessage appends message i to dst, after a comma unless it opens
// the array; last puts the moving cache point at its end.
func appendMessage(dst []byte, prev byte, i int, m *llm.Message, last bool) ([]byte, error) {
	content, err := blocks(m)
	if err != nil {
		return nil, fmt.Errorf("bedrock: message %d: %w", i, err)
	}
	if last {
		content = append(content, block{CachePoint: point})
	}
	b, err := llm.Marshal(message{Role: string(m.Role), Content: content})
	if err != nil {
		return nil, fmt.Errorf("bedrock: message %d: %w", i, err)
	}
	if prev != '[' {
		dst = append(dst, ',')
	}
	return append(dst, b...), nil
}

// blocks converts a message's parts. Bedrock refuses blank text blocks, so
// empty text is left out; thinking without a signature, or of another
// model family than Anthropic's (Part.Origin), came from another wire and
// cannot be replayed.
func blocks(m *llm.Message) ([]block, error) {
	out := make([]block, 0, len(m.Content))
	for _, p := range m.Content {
		switch p.Type {
		case llm.PartText:
			if strings.TrimSpace(p.Text) != "" {
				out = append(out, text(p.Text))
			}
		case llm.PartImage:
			out = append(out, imageBlock(p))
		case llm.PartThinking:
			switch o := p.Origin(); {
			case o != "" && o != llm.OriginAnthropic:
			case p.Redacted() != "":
				out = append(out, block{ReasoningContent: &reasoningContent{RedactedContent: p.Redacted()}})
			case p.Signature() != "":
				out = append(out, block{ReasoningContent: &reasoningContent{ReasoningText: &reasoningText{Text: p.Text, Signature: p.Signature()}}})
			}
		case llm.PartToolUse:
			input := p.Input
			if !llm.IsObject(input) {
				// Arguments the model broke are kept as a string; the
				// API takes only an object here.
				input = json.RawMessage(`{}`)
			}
			out = append(out, block{ToolUse: &toolUse{ToolUseID: p.ToolCallID, Name: p.ToolName, Input: input}})
		case llm.PartToolResult:
			r := &toolResult{ToolUseID: p.ToolCallID}
			if strings.TrimSpace(p.Text) != "" {
				r.Content = append(r.Content, text(p.Text))
			}
			for _, img := range p.Images() {
				r.Content = append(r.Content, imageBlock(img))
			}
			if len(r.Content) == 0 {
				r.Content = []block{text("(no output)")}
			}
			if p.IsError {
				r.Status = "error"
			}
			out = append(out, block{ToolResult: r})
		default:
			return nil, fmt.Errorf("unknown part type %q", p.Type)
		}
	}
	return out, nil
}

func imageBlock(p llm.Part) block {
	img := &image{Format: strings.TrimPrefix(p.MediaType(), "image/")}
	if img.Format == "jpg" {
		img.Format = "jpeg"
	}
	img.Source.Bytes = p.Data()
	return block{Image: img}
}
