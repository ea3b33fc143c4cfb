package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// decodeGemini reads a generateContent request into the neutral view: the
// model from the path, systemInstruction as System, contents as messages
// ("model" is the assistant). A thought part is a thinking part, a part's
// thoughtSignature its Signature, a functionCall a tool_use (id from its
// id), a functionResponse a tool_result ("error" sets IsError) and
// inlineData an image.
func decodeGemini(req *Request, body []byte) error {
	var w struct {
		SystemInstruction *struct {
			Parts []geminiPart `json:"parts"`
		} `json:"systemInstruction"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			MaxOutputTokens int `json:"maxOutputTokens"`
		} `json:"generationConfig"`
		Contents []struct {
			Role  string       `json:"role"`
			Parts []geminiPart `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	req.Model, req.MaxTokens = pathModel(req.Path), w.GenerationConfig.MaxOutputTokens
	if req.Model == "" {
		return fmt.Errorf("no model in the path %s", req.Path)
	}
	if si := w.SystemInstruction; si != nil {
		var texts []string
		for _, p := range si.Parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			}
		}
		req.System = strings.Join(texts, "\n")
	}
	for _, t := range w.Tools {
		for _, d := range t.FunctionDeclarations {
			req.Tools = append(req.Tools, d.Name)
		}
	}
	for i, c := range w.Contents {
		m := llm.Message{Role: llm.RoleUser}
		switch c.Role {
		case "model":
			m.Role = llm.RoleAssistant
		case "user", "":
		default:
			return fmt.Errorf("content %d: unknown role %q", i, c.Role)
		}
		if len(c.Parts) == 0 {
			return fmt.Errorf("content %d has no parts", i)
		}
		for j, p := range c.Parts {
			part, err := p.neutral()
			if err != nil {
				return fmt.Errorf("content %d part %d: %w", i, j, err)
			}
			m.Content = append(m.Content, part)
		}
		req.Messages = append(req.Messages, m)
	}
	return nil
}

type geminiPart struct {
	Text       *string `json:"text"`
	Thought    bool    `json:"thought"`
	InlineData *struct {
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	} `json:"inlineData"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Response struct {
			Output *string `json:"output"`
			Error  *string `json:"error"`
		} `json:"response"`
	} `json:"functionResponse"`
	ThoughtSignature string `json:"thoughtSignature"`
}

func (p *geminiPart) neutral() (llm.Part, error) {
	var out llm.Part
	switch {
	case p.FunctionCall != nil:
		if p.FunctionCall.Name == "" {
			return out, fmt.Errorf("functionCall without a name")
		}
		out = llm.Part{Type: llm.PartToolUse, ToolCallID: p.FunctionCall.ID, ToolName: p.FunctionCall.Name, Input: p.FunctionCall.Args}
	case p.FunctionResponse != nil:
		r := p.FunctionResponse
		if r.Name == "" {
			return out, fmt.Errorf("functionResponse without a name")
		}
		out = llm.Part{Type: llm.PartToolResult, ToolCallID: r.ID, ToolName: r.Name}
		switch {
		case r.Response.Error != nil:
			out.Text, out.IsError = *r.Response.Error, true
		case r.Response.Output != nil:
			out.Text = *r.Response.Output
		}
	case p.InlineData != nil:
		out = llm.Image(p.InlineData.MimeType, p.InlineData.Data)
	case p.Text != nil && p.Thought:
		out = llm.Part{Type: llm.PartThinking, Text: *p.Text}
	case p.Text != nil:
		out = llm.Part{Type: llm.PartText, Text: *p.Text}
	default:
		return out, fmt.Errorf("a part of no kind")
	}
	if p.ThoughtSignature != "" {
		out.Rare().Signature = p.ThoughtSignature
	}
	return out, nil
}

// decodeVertexAnthropic reads Vertex's rawPredict body: Anthropic's, with
// the model in the path and anthropic_version in the body, which Vertex
// requires (and no "model", which it does not take).
func decodeVertexAnthropic(req *Request, body []byte) error {
	var v struct {
		Version string          `json:"anthropic_version"`
		Model   json.RawMessage `json:"model"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	if v.Version != VertexAnthropicVersion {
		return fmt.Errorf("anthropic_version is %q, want %q", v.Version, VertexAnthropicVersion)
	}
	if v.Model != nil {
		return fmt.Errorf("the body names a model: Vertex takes it from the path")
	}
	if err := decodeAnthropic(req, body); err != nil {
		return err
	}
	req.Model = pathModel(req.Path)
	return nil
}
