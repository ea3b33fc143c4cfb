package gemini

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// head is the request up to its contents, in the order sent. contents is
// the last field, so a request body minus its closing "]}" is a byte
// prefix of the next request of the same session: the prefix Gemini's
// implicit cache matches.
type head struct {
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	Tools             []tools           `json:"tools,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
}

type tools struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations"`
}

// functionDeclaration sends the tool's schema as JSON Schema
// (parametersJsonSchema): the API's older "parameters" field takes only an
// OpenAPI subset, which MCP tools' schemas often leave.
type functionDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parametersJsonSchema"`
}

type generationConfig struct {
	MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
}

type thinkingConfig struct {
	IncludeThoughts bool   `json:"includeThoughts"`
	ThinkingBudget  *int   `json:"thinkingBudget,omitempty"` // Gemini 2.5
	ThinkingLevel   string `json:"thinkingLevel,omitempty"`  // Gemini 3
}

type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// part is one of Gemini's part kinds; the signature, when a part carries
// one, comes after the kind's field, as the API sends it.
type part struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	InlineData       *inlineData       `json:"inlineData,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
}

type inlineData struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

// functionCall's id is sent back only when the server gave one (Extra
// "id"): Vertex refuses fields it does not know.
type functionCall struct {
	ID   json.RawMessage `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResponse struct {
	ID       json.RawMessage `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response toolOutput      `json:"response"`
}

// toolOutput is the response object the API documents: the output under
// "output", or what went wrong under "error".
type toolOutput struct {
	Output *string `json:"output,omitempty"`
	Error  *string `json:"error,omitempty"`
}

// idExtra is the Extra key of a tool call part holding the id the server
// gave the call (a JSON string), to be sent back with it.
const idExtra = "id"

// Thinking budgets of Gemini 2.5 per effort level (tokens).
const (
	budgetLow    = 1024
	budgetMedium = 8192
	budgetHigh   = 24576
	// budgetProMin is the least Gemini 2.5 Pro takes: it cannot stop
	// thinking, so "off" asks for the least it allows.
	budgetProMin = 128
	// answerTokens is the room left for the answer when the output limit
	// would not exceed the thinking budget.
	answerTokens = 8192
)

func (p *Provider) encode(req *llm.Request) ([][]byte, error) {
	h, err := p.prefix.Head(req, func() ([]byte, error) { return encodeHead(req) })
	if err != nil {
		return nil, err
	}
	body, err := p.prefix.Encode(h, req.Messages, func(dst []byte, prev byte, i int, m *llm.Message) ([]byte, error) {
		return appendMessage(dst, prev, i, m, req.Messages)
	})
	if err != nil {
		return nil, err
	}
	return append(body, []byte("]}")), nil
}

func encodeHead(req *llm.Request) ([]byte, error) {
	var h head
	if req.System != "" {
		h.SystemInstruction = &content{Parts: []part{{Text: &req.System}}}
	}
	if len(req.Tools) > 0 {
		decls := make([]functionDeclaration, len(req.Tools))
		for i, t := range req.Tools {
			schema := t.InputSchema
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			decls[i] = functionDeclaration{Name: t.Name, Description: t.Description, Parameters: schema}
		}
		h.Tools = []tools{{FunctionDeclarations: decls}}
	}
	gc := generationConfig{MaxOutputTokens: req.MaxTokens, ThinkingConfig: thinking(ModelID(req.Model), req.Effort)}
	if tc := gc.ThinkingConfig; tc != nil && tc.ThinkingBudget != nil && gc.MaxOutputTokens > 0 && gc.MaxOutputTokens <= *tc.ThinkingBudget {
		// Thoughts count against the output limit: leave room for the answer.
		gc.MaxOutputTokens = *tc.ThinkingBudget + answerTokens
	}
	if gc != (generationConfig{}) {
		h.GenerationConfig = &gc
	}
	b, err := llm.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("gemini: encoding request: %w", err)
	}
	if len(b) > 2 {
		b = append(b[:len(b)-1], ',')
	} else {
		b = b[:len(b)-1]
	}
	return append(b, `"contents":[`...), nil
}

// thinking asks a thinking model for its thoughts, at the effort's level:
// a budget for Gemini 2.5, a level for Gemini 3. Other models get none.
func thinking(model string, e llm.Effort) *thinkingConfig {
	switch {
	case strings.HasPrefix(model, "gemini-3"):
		tc := &thinkingConfig{IncludeThoughts: true}
		switch e {
		case llm.EffortOff, llm.EffortLow:
			tc.ThinkingLevel = "low"
		case llm.EffortMedium, llm.EffortHigh:
			tc.ThinkingLevel = "high"
		}
		return tc
	case strings.HasPrefix(model, "gemini-2.5"):
		tc := &thinkingConfig{IncludeThoughts: true}
		budget := 0
		switch e {
		case llm.EffortOff:
			if strings.Contains(model, "pro") {
				budget = budgetProMin
			} else {
				tc.IncludeThoughts = false
			}
		case llm.EffortLow:
			budget = budgetLow
		case llm.EffortMedium:
			budget = budgetMedium
		case llm.EffortHigh:
			budget = budgetHigh
		default:
			return tc // the model's own dynamic budget
		}
		tc.ThinkingBudget = &budget
		return tc
	}
	return nil
}

// appendMessage appends history message i as one content, after a comma
// unless it opens the array. history is the whole request's, where a tool
// result finds its call.
func appendMessage(dst []byte, prev byte, i int, m *llm.Message, history []llm.Message) ([]byte, error) {
	c := content{Role: "user"}
	if m.Role == llm.RoleAssistant {
		c.Role = "model"
	}
	var err error
	if c.Parts, err = parts(m, history[:i]); err != nil {
		return nil, fmt.Errorf("gemini: message %d: %w", i, err)
	}
	if len(c.Parts) == 0 {
		// The API refuses a content without parts; an empty message (an
		// answer of nothing) still takes its place in the turn order.
		empty := ""
		c.Parts = []part{{Text: &empty}}
	}
	b, err := llm.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("gemini: message %d: %w", i, err)
	}
	if prev != '[' {
		dst = append(dst, ',')
	}
	return append(dst, b...), nil
}

func parts(m *llm.Message, before []llm.Message) ([]part, error) {
	var out, images []part
	for _, p := range m.Content {
		switch p.Type {
		case llm.PartText:
			if p.Text == "" && signature(p) == "" {
				continue
			}
			out = append(out, part{Text: &p.Text, ThoughtSignature: signature(p)})
		case llm.PartThinking:
			// Only Gemini's own thoughts: another family's mean nothing here.
			if p.Origin() != llm.OriginGoogle || p.Text == "" && p.Signature() == "" {
				continue
			}
			out = append(out, part{Text: &p.Text, Thought: true, ThoughtSignature: p.Signature()})
		case llm.PartImage:
			out = append(out, imagePart(p))
		case llm.PartToolUse:
			args := p.Input
			if !llm.IsObject(args) { // malformed arguments, answered with an error
				args = json.RawMessage(`{}`)
			}
			out = append(out, part{FunctionCall: &functionCall{ID: p.Extra()[idExtra], Name: p.ToolName, Args: args}, ThoughtSignature: signature(p)})
		case llm.PartToolResult:
			call := findCall(before, p.ToolCallID)
			r := &functionResponse{Name: p.ToolName, ID: call.Extra()[idExtra]}
			if r.Name == "" {
				r.Name = call.ToolName
			}
			text := p.Text
			if p.IsError {
				r.Response.Error = &text
			} else {
				r.Response.Output = &text
			}
			out = append(out, part{FunctionResponse: r})
			if imgs := p.Images(); len(imgs) > 0 {
				// A function response carries text; its images follow it.
				label := "Images returned by tool call " + p.ToolCallID + ":"
				images = append(images, part{Text: &label})
				for _, img := range imgs {
					images = append(images, imagePart(img))
				}
			}
		default:
			return nil, fmt.Errorf("unknown part type %q", p.Type)
		}
	}
	return append(out, images...), nil
}

// signature is p's thought signature when Gemini made it; another
// family's would be refused.
func signature(p llm.Part) string {
	if p.Origin() != llm.OriginGoogle {
		return ""
	}
	return p.Signature()
}

func imagePart(p llm.Part) part {
	return part{InlineData: &inlineData{MimeType: p.MediaType(), Data: p.Data()}}
}

// findCall is the tool call part of id in the history before a result,
// latest first; a zero part when there is none.
func findCall(before []llm.Message, id string) llm.Part {
	for i := len(before) - 1; i >= 0; i-- {
		for _, p := range before[i].Content {
			if p.Type == llm.PartToolUse && p.ToolCallID == id {
				return p
			}
		}
	}
	return llm.Part{}
}
