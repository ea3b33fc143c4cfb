package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tandemhq/tandem/agent/llm"
)

// openAIMessage is one of a Chat Completions request's messages.
type openAIMessage struct {
	Role       string   `json:"role"`
	Content    flexText `json:"content"`
	ToolCallID string   `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	// The reasoning fields are kept as sent: a thinking part carries
	// its field back in Extra.
	ReasoningContent jsontext.Value `json:"reasoning_content"`
	Reasoning        jsontext.Value `json:"reasoning"`
}

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
		Messages []openAIMessage `json:"messages"`
	}
	if err := decodeV2(body, &w); err != nil {
		return err
	}
	req.Model, req.MaxTokens = w.Model, max(w.MaxTokens, w.MaxCompletionTokens)
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	var systems []string
	for i, m := range w.Messages {
		switch m.Role {
		case "system", "developer":
			systems = append(systems, m.Content.joined())
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: userParts(m.Content)})
		case "tool":
			p := llm.Part{Type: llm.PartToolResult, ToolCallID: m.ToolCallID, Text: m.Content.joined()}
			if n := len(req.Messages); n > 0 && isToolResults(req.Messages[n-1]) {
				req.Messages[n-1].Content = append(req.Messages[n-1].Content, p)
			} else {
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: []llm.Part{p}})
			}
		case "assistant":
			req.Messages = append(req.Messages, openAIAssistant(&m))
		default:
			return fmt.Errorf("message %d: unknown role %q", i, m.Role)
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

func openAIAssistant(om *openAIMessage) llm.Message {
	m := llm.Message{Role: llm.RoleAssistant}
	for _, r := range []struct {
		field string
		v     jsontext.Value
	}{{"reasoning_content", om.ReasoningContent}, {"reasoning", om.Reasoning}} {
		var s string
		if r.v != nil && decodeV2(r.v, &s) == nil && s != "" {
			m.Content = append(m.Content, llm.Part{Type: llm.PartThinking, Text: s, PartRare: &llm.PartRare{Extra: map[string]json.RawMessage{r.field: json.RawMessage(r.v)}}})
		}
	}
	if text := om.Content.joined(); text != "" {
		m.Content = append(m.Content, llm.Part{Type: llm.PartText, Text: text})
	}
	for _, c := range om.ToolCalls {
		m.Content = append(m.Content, llm.Part{Type: llm.PartToolUse, ToolCallID: c.ID, ToolName: c.Function.Name, Input: json.RawMessage(c.Function.Arguments)})
	}
	return m
}

// dataURLImage reads an image sent as data:<media type>;base64,<data>.
func dataURLImage(url string) llm.Part {
	meta, data, _ := strings.Cut(strings.TrimPrefix(url, "data:"), ",")
	return llm.Image(strings.TrimSuffix(meta, ";base64"), data)
}
