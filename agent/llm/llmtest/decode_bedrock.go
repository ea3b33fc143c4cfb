package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// bedrockBlock is a Converse content block, the fields read.
type bedrockBlock struct {
	Text  *string `json:"text"`
	Image *struct {
		Format string `json:"format"`
		Source struct {
			Bytes string `json:"bytes"`
		} `json:"source"`
	} `json:"image"`
	ToolUse *struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
	ToolResult *struct {
		ToolUseID string         `json:"toolUseId"`
		Content   []bedrockBlock `json:"content"`
		Status    string         `json:"status"`
	} `json:"toolResult"`
	ReasoningContent *struct {
		ReasoningText *struct {
			Text      string `json:"text"`
			Signature string `json:"signature"`
		} `json:"reasoningText"`
		RedactedContent string `json:"redactedContent"`
	} `json:"reasoningContent"`
	CachePoint *struct {
		Type string `json:"type"`
	} `json:"cachePoint"`
}

// decodeBedrock reads a Converse request into the neutral view: the model
// from the path (/model/{id}/converse-stream, the id escaped), system text
// blocks joined, tool specs' names; reasoningContent becomes a thinking
// part with its signature (or its redacted content), a toolResult a
// tool_result part (its images attached), cachePoint blocks are skipped.
func decodeBedrock(req *Request, r *http.Request, body []byte) error {
	id := strings.TrimSuffix(strings.TrimPrefix(r.URL.EscapedPath(), "/model/"), "/converse-stream")
	model, err := url.PathUnescape(id)
	if err != nil || strings.Contains(id, "/") {
		return fmt.Errorf("model id %q is not one escaped path segment", id)
	}
	var w struct {
		System          []bedrockBlock `json:"system"`
		InferenceConfig struct {
			MaxTokens int `json:"maxTokens"`
		} `json:"inferenceConfig"`
		ToolConfig struct {
			Tools []struct {
				ToolSpec *struct {
					Name string `json:"name"`
				} `json:"toolSpec"`
			} `json:"tools"`
		} `json:"toolConfig"`
		Messages []struct {
			Role    string         `json:"role"`
			Content []bedrockBlock `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	req.Model, req.MaxTokens = model, w.InferenceConfig.MaxTokens
	var systems []string
	for _, b := range w.System {
		if b.Text != nil {
			systems = append(systems, *b.Text)
		}
	}
	req.System = strings.Join(systems, "\n")
	for _, t := range w.ToolConfig.Tools {
		if t.ToolSpec != nil {
			req.Tools = append(req.Tools, t.ToolSpec.Name)
		}
	}
	for i, m := range w.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		msg := llm.Message{Role: llm.Role(m.Role)}
		for _, b := range m.Content {
			if p, ok := bedrockPart(b); ok {
				msg.Content = append(msg.Content, p)
			}
		}
		req.Messages = append(req.Messages, msg)
	}
	return nil
}

func bedrockPart(b bedrockBlock) (llm.Part, bool) {
	switch {
	case b.Text != nil:
		return llm.Part{Type: llm.PartText, Text: *b.Text}, true
	case b.Image != nil:
		return llm.Image("image/"+b.Image.Format, b.Image.Source.Bytes), true
	case b.ToolUse != nil:
		return llm.Part{Type: llm.PartToolUse, ToolCallID: b.ToolUse.ToolUseID, ToolName: b.ToolUse.Name, Input: b.ToolUse.Input}, true
	case b.ToolResult != nil:
		p := llm.Part{Type: llm.PartToolResult, ToolCallID: b.ToolResult.ToolUseID, IsError: b.ToolResult.Status == "error"}
		var texts []string
		for _, c := range b.ToolResult.Content {
			switch {
			case c.Text != nil:
				texts = append(texts, *c.Text)
			case c.Image != nil:
				img, _ := bedrockPart(c)
				p.Rare().Images = append(p.Rare().Images, img)
			}
		}
		p.Text = strings.Join(texts, "\n")
		return p, true
	case b.ReasoningContent != nil:
		rc := b.ReasoningContent
		if rc.RedactedContent != "" {
			return llm.Part{Type: llm.PartThinking, PartRare: &llm.PartRare{Redacted: rc.RedactedContent}}, true
		}
		if rc.ReasoningText != nil {
			return llm.Part{Type: llm.PartThinking, Text: rc.ReasoningText.Text, PartRare: &llm.PartRare{Signature: rc.ReasoningText.Signature}}, true
		}
	}
	return llm.Part{}, false
}
