package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tandemhq/tandem/agent/llm"
)

type wireChunk struct {
	Choices []wireChoice `json:"choices"`
	Usage   *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

type wireDelta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type call struct {
	index int // the server's index, or -1 when it sent none
	part  llm.Part
	args  []byte
}

type assembler struct {
	emit      func(llm.Event)
	text      bytes.Buffer
	reasoning bytes.Buffer
	field     string // which field the reasoning came in
	calls     []*call
	finish    string
	ended     bool // tool calls closed
	resp      llm.Response
}

func readStream(ctx context.Context, bufs *llm.SSEBuffers, body io.Reader, emit func(llm.Event)) (*llm.Response, error) {
	a := &assembler{emit: emit}
	sse := bufs.Reader(body)
	defer sse.Close()
	var c wireChunk // its Choices reused by the fast path from chunk to chunk
	for {
		ev, err := sse.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, llm.StreamError(ctx, "openai", "response stream ended before [DONE]", err)
		}
		data := bytes.TrimSpace(ev.Data)
		if string(data) == "[DONE]" {
			return a.done()
		}
		if len(data) == 0 {
			continue
		}
		c = wireChunk{Choices: c.Choices[:0]}
		if !fastChunk(data, &c) {
			c = wireChunk{}
			if err := json.Unmarshal(data, &c); err != nil {
				return nil, llm.StreamError(ctx, "openai", "bad stream chunk", err)
			}
		}
		if len(c.Error) > 0 && string(c.Error) != "null" {
			return nil, chunkError(c.Error)
		}
		if err := a.chunk(&c); err != nil {
			return nil, err
		}
	}
}

func chunkError(raw json.RawMessage) error {
	var e struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	msg := string(raw)
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		msg = e.Message
	} else if json.Unmarshal(raw, &msg) != nil {
		msg = string(raw)
	}
	return &llm.Error{Provider: "openai", Message: "error in response stream: " + msg}
}

func (a *assembler) chunk(c *wireChunk) error {
	if u := c.Usage; u != nil {
		a.resp.Usage = llm.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
		// Report input like Anthropic does: cached tokens apart, not included.
		if d := u.PromptTokensDetails; d != nil && d.CachedTokens <= u.PromptTokens {
			a.resp.Usage.CacheReadTokens = d.CachedTokens
			a.resp.Usage.InputTokens -= d.CachedTokens
		}
		if d := u.CompletionTokensDetails; d != nil {
			a.resp.Usage.ReasoningTokens = d.ReasoningTokens
		}
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // we never ask for n > 1
		}
		d := &ch.Delta
		switch {
		case d.ReasoningContent != "":
			a.addReasoning("reasoning_content", d.ReasoningContent)
		case d.Reasoning != "":
			a.addReasoning("reasoning", d.Reasoning)
		}
		if d.Content != "" {
			a.text.WriteString(d.Content)
			a.emit(llm.Event{Type: llm.EventText, Text: d.Content})
		}
		for i := range d.ToolCalls {
			a.toolDelta(&d.ToolCalls[i])
		}
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
			if err := a.endCalls(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *assembler) addReasoning(field, s string) {
	if a.field == "" {
		a.field = field
	}
	a.reasoning.WriteString(s)
	a.emit(llm.Event{Type: llm.EventReasoning, Text: s})
}

// toolDelta finds the call a fragment belongs to: by index when the server
// sends one (unless it reuses an index for a call with a new id), else by
// id, else the most recent call (a continuation without either).
func (a *assembler) toolDelta(d *toolCallDelta) {
	var c *call
	switch {
	case d.Index != nil:
		for _, x := range a.calls {
			if x.index == *d.Index && (d.ID == "" || x.part.ToolCallID == d.ID) {
				c = x
			}
		}
	case d.ID != "":
		for _, x := range a.calls {
			if x.part.ToolCallID == d.ID {
				c = x
			}
		}
	case len(a.calls) > 0:
		c = a.calls[len(a.calls)-1]
	}
	if c == nil || a.ended {
		idx := -1
		if d.Index != nil {
			idx = *d.Index
		}
		id := d.ID
		if id == "" {
			id = fmt.Sprintf("call_%d", len(a.calls))
		}
		c = &call{index: idx, part: llm.Part{Type: llm.PartToolUse, ToolCallID: id, ToolName: d.Function.Name}}
		a.calls = append(a.calls, c)
		a.ended = false
		a.emit(llm.Event{Type: llm.EventToolCallStart, ToolCallID: id, ToolName: c.part.ToolName})
	} else if c.part.ToolName == "" {
		c.part.ToolName = d.Function.Name
	}
	if d.Function.Arguments != "" {
		c.args = append(c.args, d.Function.Arguments...)
		a.emit(llm.Event{Type: llm.EventToolCallDelta, ToolCallID: c.part.ToolCallID, Text: d.Function.Arguments})
	}
}

// endCalls closes every open tool call once, checking its arguments.
func (a *assembler) endCalls() error {
	if a.ended {
		return nil
	}
	a.ended = true
	for _, c := range a.calls {
		args := bytes.TrimSpace(c.args)
		if len(args) == 0 {
			args = []byte("{}")
		}
		c.part.Input = llm.ToolInput(args)
		a.emit(llm.Event{Type: llm.EventToolCallEnd, ToolCallID: c.part.ToolCallID, ToolName: c.part.ToolName, Input: c.part.Input})
	}
	return nil
}

func (a *assembler) done() (*llm.Response, error) {
	if err := a.endCalls(); err != nil {
		return nil, err
	}
	m := &a.resp.Message
	m.Role = llm.RoleAssistant
	if a.reasoning.Len() > 0 {
		s := a.reasoning.String()
		raw, _ := json.Marshal(s)
		m.Content = append(m.Content, llm.Part{Type: llm.PartThinking, Text: s, PartRare: &llm.PartRare{Extra: map[string]json.RawMessage{a.field: raw}}})
	}
	if a.text.Len() > 0 {
		m.Content = append(m.Content, llm.Part{Type: llm.PartText, Text: a.text.String()})
	}
	for _, c := range a.calls {
		m.Content = append(m.Content, c.part)
	}
	a.resp.StopReason = stopReason(a.finish, len(a.calls) > 0)
	a.emit(llm.Event{Type: llm.EventUsage, Usage: a.resp.Usage})
	a.emit(llm.Event{Type: llm.EventStop, StopReason: a.resp.StopReason})
	return &a.resp, nil
}

// stopReason maps finish_reason. Some servers (older Ollama) say "stop"
// even when they called tools; the calls decide.
func stopReason(finish string, calledTools bool) llm.StopReason {
	switch finish {
	case "length":
		return llm.StopMaxTokens
	case "content_filter":
		return llm.StopRefusal
	}
	if calledTools {
		return llm.StopToolUse
	}
	return llm.StopEndTurn
}
