package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

func decodeOpenAI(req *Request, body []byte) error {
	var w struct {
		Model               string `json:"model"`
		MaxTokens           int    `json:"max_tokens"`
		MaxCompletionTokens int    `json:"max_completion_tokens"`
		Tools               []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		Messages []map[string]json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	req.Model, req.MaxTokens = w.Model, max(w.MaxTokens, w.MaxCompletionTokens)
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	var systems []string
	for i, raw := range w.Messages {
		var role string
		json.Unmarshal(raw["role"], &role)
		var content flexText
		if c, ok := raw["content"]; ok && string(c) != "null" {
			if err := json.Unmarshal(c, &content); err != nil {
				return fmt.Errorf("message %d content: %w", i, err)
			}
		}
		switch role {
		case "system", "developer":
			systems = append(systems, content.joined())
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: userParts(content)})
		case "tool":
			var id string
			json.Unmarshal(raw["tool_call_id"], &id)
			p := llm.Part{Type: llm.PartToolResult, ToolCallID: id, Text: content.joined()}
			if n := len(req.Messages); n > 0 && isToolResults(req.Messages[n-1]) {
				req.Messages[n-1].Content = append(req.Messages[n-1].Content, p)
			} else {
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: []llm.Part{p}})
			}
		case "assistant":
			m, err := openAIAssistant(raw, content)
			if err != nil {
				return fmt.Errorf("message %d: %w", i, err)
			}
			req.Messages = append(req.Messages, m)
		default:
			return fmt.Errorf("message %d: unknown role %q", i, role)
		}
	}
	req.System = strings.Join(systems, "\n")
	return nil
}

func isToolResults(m llm.Message) bool {
	return m.Role == llm.RoleUser && len(m.Content) > 0 && m.Content[0].Type == llm.PartToolResult
}

func userParts(content flexText) []llm.Part {
	var parts []llm.Part
	for _, b := range content {
		switch {
		case b.Type == "text":
			parts = append(parts, llm.Part{Type: llm.PartText, Text: b.Text})
		case b.Type == "image_url" && b.ImageURL != nil:
			parts = append(parts, dataURLImage(b.ImageURL.URL))
		}
	}
	return parts
}

func openAIAssistant(raw map[string]json.RawMessage, content flexText) (llm.Message, error) {
	m := llm.Message{Role: llm.RoleAssistant}
	for _, field := range []string{"reasoning_content", "reasoning"} {
		var s string
		if v, ok := raw[field]; ok && json.Unmarshal(v, &s) == nil && s != "" {
			m.Content = append(m.Content, llm.Part{Type: llm.PartThinking, Text: s, PartRare: &llm.PartRare{Extra: map[string]json.RawMessage{field: v}}})
		}
	}
	if text := content.joined(); text != "" {
		m.Content = append(m.Content, llm.Part{Type: llm.PartText, Text: text})
	}
	var calls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	if v, ok := raw["tool_calls"]; ok {
		if err := json.Unmarshal(v, &calls); err != nil {
			return m, fmt.Errorf("tool_calls: %w", err)
		}
	}
	for _, c := range calls {
		m.Content = append(m.Content, llm.Part{Type: llm.PartToolUse, ToolCallID: c.ID, ToolName: c.Function.Name, Input: json.RawMessage(c.Function.Arguments)})
	}
	return m, nil
}

// dataURLImage reads an image sent as data:<media type>;base64,<data>.
func dataURLImage(url string) llm.Part {
	meta, data, _ := strings.Cut(strings.TrimPrefix(url, "data:"), ",")
	return llm.Image(strings.TrimSuffix(meta, ";base64"), data)
}
