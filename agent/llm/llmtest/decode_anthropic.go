package llmtest

import (
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tandemhq/tandem/agent/llm"
)

type anthropicBlock struct {
	Type      string         `json:"type"`
	Text      string         `json:"text"`
	Thinking  string         `json:"thinking"`
	Signature string         `json:"signature"`
	Data      string         `json:"data"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Input     jsontext.Value `json:"input"`
	ToolUseID string         `json:"tool_use_id"`
	Content   flexText       `json:"content"`
	IsError   bool           `json:"is_error"`
	Source    *struct {
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// anthropicContent is a string or an array of blocks.
type anthropicContent []anthropicBlock

// UnmarshalJSONFrom reads it in one pass (decodeV2).
func (c *anthropicContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		*c = anthropicContent{{Type: "text", Text: tok.String()}}
		return err
	}
	return jsonv2.UnmarshalDecode(dec, (*[]anthropicBlock)(c))
}

func decodeAnthropic(req *Request, body []byte) error {
	var w struct {
		Model     string   `json:"model"`
		MaxTokens int      `json:"max_tokens"`
		System    flexText `json:"system"`
		Tools     []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			Role    string           `json:"role"`
			Content anthropicContent `json:"content"`
		} `json:"messages"`
	}
	if err := decodeV2(body, &w); err != nil {
		return err
	}
	req.Model, req.MaxTokens, req.System = w.Model, w.MaxTokens, w.System.joined()
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	for i, m := range w.Messages {
		msg := llm.Message{Role: llm.Role(m.Role)}
		for _, b := range m.Content {
			p, err := anthropicPart(b)
			if err != nil {
				return fmt.Errorf("message %d: %w", i, err)
			}
			msg.Content = append(msg.Content, p)
		}
		req.Messages = append(req.Messages, msg)
	}
	return nil
}

func anthropicPart(b anthropicBlock) (llm.Part, error) {
	switch b.Type {
	case "text":
		return llm.Part{Type: llm.PartText, Text: b.Text}, nil
	case "image":
		if b.Source == nil {
			return llm.Part{}, fmt.Errorf("image without source")
		}
		return llm.Image(b.Source.MediaType, b.Source.Data), nil
	case "thinking":
		return llm.Part{Type: llm.PartThinking, Text: b.Thinking, PartRare: &llm.PartRare{Signature: b.Signature}}, nil
	case "redacted_thinking":
		return llm.Part{Type: llm.PartThinking, PartRare: &llm.PartRare{Redacted: b.Data}}, nil
	case "tool_use":
		return llm.Part{Type: llm.PartToolUse, ToolCallID: b.ID, ToolName: b.Name, Input: json.RawMessage(b.Input)}, nil
	case "tool_result":
		p := llm.Part{Type: llm.PartToolResult, ToolCallID: b.ToolUseID, IsError: b.IsError, Text: b.Content.joined()}
		for _, c := range b.Content {
			if c.Type == "image" && c.Source != nil {
				p.Rare().Images = append(p.Rare().Images, llm.Image(c.Source.MediaType, c.Source.Data))
			}
		}
		return p, nil
	}
	return llm.Part{}, fmt.Errorf("unknown block type %q", b.Type)
}
