package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// decodeResponses reads a Responses API request into the neutral view:
// instructions (and system or developer messages) as System; consecutive
// assistant-side items (reasoning, assistant messages, function calls) as
// one assistant message; consecutive function_call_output items as one
// user message of tool results. A reasoning item becomes a thinking part
// with its summary as Text and its encrypted_content as Signature.
func decodeResponses(req *Request, body []byte) error {
	var w struct {
		Model           string `json:"model"`
		Instructions    string `json:"instructions"`
		MaxOutputTokens int    `json:"max_output_tokens"`
		Tools           []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	req.Model, req.MaxTokens = w.Model, w.MaxOutputTokens
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	systems := []string{}
	if w.Instructions != "" {
		systems = append(systems, w.Instructions)
	}
	var s string
	if json.Unmarshal(w.Input, &s) == nil {
		req.Messages = []llm.Message{llm.Text(llm.RoleUser, s)}
		req.System = strings.Join(systems, "\n")
		return nil
	}
	var items []struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		CallID    string          `json:"call_id"`
		Name      string          `json:"name"`
		Arguments string          `json:"arguments"`
		Output    string          `json:"output"`
		Summary   []struct {
			Text string `json:"text"`
		} `json:"summary"`
		EncryptedContent string `json:"encrypted_content"`
	}
	if err := json.Unmarshal(w.Input, &items); err != nil {
		return fmt.Errorf("input: %w", err)
	}
	// add appends p to the last message when it has role and the test
	// says it belongs there, else to a new message.
	add := func(role llm.Role, p llm.Part, join func(llm.Message) bool) {
		if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == role && join(req.Messages[n-1]) {
			req.Messages[n-1].Content = append(req.Messages[n-1].Content, p)
			return
		}
		req.Messages = append(req.Messages, llm.Message{Role: role, Content: []llm.Part{p}})
	}
	always := func(llm.Message) bool { return true }
	for i, it := range items {
		switch it.Type {
		case "", "message":
			var content responsesContent
			if len(it.Content) > 0 {
				if err := json.Unmarshal(it.Content, &content); err != nil {
					return fmt.Errorf("input %d content: %w", i, err)
				}
			}
			switch it.Role {
			case "system", "developer":
				systems = append(systems, content.joined())
			case "user":
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: content.parts()})
			case "assistant":
				add(llm.RoleAssistant, llm.Part{Type: llm.PartText, Text: content.joined()}, always)
			default:
				return fmt.Errorf("input %d: unknown role %q", i, it.Role)
			}
		case "reasoning":
			texts := make([]string, len(it.Summary))
			for j, s := range it.Summary {
				texts[j] = s.Text
			}
			add(llm.RoleAssistant, llm.Part{Type: llm.PartThinking, Text: strings.Join(texts, "\n\n"), PartRare: &llm.PartRare{Signature: it.EncryptedContent}}, always)
		case "function_call":
			add(llm.RoleAssistant, llm.Part{Type: llm.PartToolUse, ToolCallID: it.CallID, ToolName: it.Name, Input: json.RawMessage(it.Arguments)}, always)
		case "function_call_output":
			add(llm.RoleUser, llm.Part{Type: llm.PartToolResult, ToolCallID: it.CallID, Text: it.Output}, isToolResults)
		default:
			return fmt.Errorf("input %d: unknown item type %q", i, it.Type)
		}
	}
	req.System = strings.Join(systems, "\n")
	return nil
}

// responsesContent is a message's content: a string, or input_text,
// output_text and input_image parts.
type responsesContent []struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
}

func (c *responsesContent) UnmarshalJSON(b []byte) error {
	if s, ok := jsonString(b); ok {
		*c = responsesContent{{Type: "input_text", Text: s}}
		return nil
	}
	type plain responsesContent
	return json.Unmarshal(b, (*plain)(c))
}

func (c responsesContent) joined() string {
	var texts []string
	for _, p := range c {
		if p.Type == "input_text" || p.Type == "output_text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func (c responsesContent) parts() []llm.Part {
	var parts []llm.Part
	for _, p := range c {
		switch p.Type {
		case "input_text", "output_text":
			parts = append(parts, llm.Part{Type: llm.PartText, Text: p.Text})
		case "input_image":
			parts = append(parts, dataURLImage(p.ImageURL))
		}
	}
	return parts
}
