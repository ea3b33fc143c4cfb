package bedrock

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/tandemhq/tandem/agent/llm"
)

// event is the union of ConverseStream's event payloads, the fields read.
type event struct {
	ContentBlockIndex int `json:"contentBlockIndex"`
	Start             *struct {
		ToolUse *struct {
			ToolUseID string `json:"toolUseId"`
			Name      string `json:"name"`
		} `json:"toolUse"`
	} `json:"start"`
	Delta *struct {
		Text    *string `json:"text"`
		ToolUse *struct {
			Input string `json:"input"`
		} `json:"toolUse"`
		ReasoningContent *struct {
			Text            *string `json:"text"`
			Signature       string  `json:"signature"`
			RedactedContent string  `json:"redactedContent"`
		} `json:"reasoningContent"`
	} `json:"delta"`
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens           int `json:"inputTokens"`
		OutputTokens          int `json:"outputTokens"`
		CacheReadInputTokens  int `json:"cacheReadInputTokens"`
		CacheWriteInputTokens int `json:"cacheWriteInputTokens"`
	} `json:"usage"`
	Message string `json:"message"` // exceptions
}

// slot is one content block being streamed, at its contentBlockIndex.
type slot struct {
	index int
	part  llm.Part
	text  strings.Builder
}

type assembler struct {
	emit    func(llm.Event)
	origin  string // the model family of the thinking (Part.Origin)
	slots   []*slot
	stopped bool
	resp    llm.Response
}

func readStream(ctx context.Context, model string, body io.Reader, emit func(llm.Event)) (*llm.Response, error) {
	a := &assembler{emit: emit}
	if claude(model) {
		// Claude's signatures are valid on Anthropic's API and Vertex
		// too, so its thinking is Anthropic's family wherever it ran.
		a.origin = llm.OriginAnthropic
	}
	dec := eventstream.NewDecoder()
	var buf []byte
	for {
		msg, err := dec.Decode(body, buf)
		if err != nil {
			if errors.Is(err, io.EOF) {
				if a.stopped {
					return a.finish(), nil // no metadata event: no usage
				}
				err = io.ErrUnexpectedEOF
			}
			return nil, llm.StreamError(ctx, name, "response stream ended before messageStop", err)
		}
		buf = msg.Payload[:0]
		done, err := a.message(&msg)
		if err != nil {
			return nil, err
		}
		if done {
			return a.finish(), nil
		}
	}
}

func header(m *eventstream.Message, key string) string {
	if v := m.Headers.Get(key); v != nil {
		return v.String()
	}
	return ""
}

// message handles one frame; done is true after the stream's last event.
func (a *assembler) message(m *eventstream.Message) (done bool, err error) {
	var e event
	if len(m.Payload) > 0 {
		if err := json.Unmarshal(m.Payload, &e); err != nil {
			return false, &llm.Error{Provider: name, Message: "bad stream event: " + err.Error(), Err: err}
		}
	}
	switch header(m, ":message-type") {
	case "exception":
		return false, exception(header(m, ":exception-type"), e.Message)
	case "error":
		return false, exception(header(m, ":error-code"), header(m, ":error-message"))
	}
	switch header(m, ":event-type") {
	case "contentBlockStart":
		if e.Start != nil && e.Start.ToolUse != nil {
			s := a.slot(e.ContentBlockIndex)
			s.part = llm.Part{Type: llm.PartToolUse, ToolCallID: e.Start.ToolUse.ToolUseID, ToolName: e.Start.ToolUse.Name}
			a.emit(llm.Event{Type: llm.EventToolCallStart, ToolCallID: s.part.ToolCallID, ToolName: s.part.ToolName})
		}
	case "contentBlockDelta":
		if e.Delta != nil {
			a.delta(a.slot(e.ContentBlockIndex), &e)
		}
	case "contentBlockStop":
		a.stop(a.slot(e.ContentBlockIndex))
	case "messageStop":
		a.stopped = true
		a.resp.StopReason = stopReason(e.StopReason)
	case "metadata":
		if u := e.Usage; u != nil {
			a.resp.Usage = llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
				CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheWriteInputTokens}
		}
		// metadata is the last event, after messageStop.
		return a.stopped, nil
	}
	return false, nil
}

func (a *assembler) delta(s *slot, e *event) {
	d := e.Delta
	switch {
	case d.Text != nil:
		if s.part.Type == "" {
			s.part.Type = llm.PartText
		}
		s.text.WriteString(*d.Text)
		a.emit(llm.Event{Type: llm.EventText, Text: *d.Text})
	case d.ToolUse != nil:
		s.text.WriteString(d.ToolUse.Input)
		a.emit(llm.Event{Type: llm.EventToolCallDelta, ToolCallID: s.part.ToolCallID, Text: d.ToolUse.Input})
	case d.ReasoningContent != nil:
		r := d.ReasoningContent
		if s.part.Type == "" {
			s.part = llm.Part{Type: llm.PartThinking, PartRare: &llm.PartRare{Origin: a.origin}}
		}
		if r.Text != nil {
			s.text.WriteString(*r.Text)
			a.emit(llm.Event{Type: llm.EventReasoning, Text: *r.Text})
		}
		if r.Signature != "" {
			s.part.Rare().Signature += r.Signature
		}
		if r.RedactedContent != "" {
			s.part.Rare().Redacted += r.RedactedContent
		}
	}
}

// stop completes a block; the tool call's arguments are whole only now.
func (a *assembler) stop(s *slot) {
	switch s.part.Type {
	case llm.PartToolUse:
		if s.part.Input == nil {
			s.part.Input = llm.ToolInput([]byte(s.text.String()))
			a.emit(llm.Event{Type: llm.EventToolCallEnd, ToolCallID: s.part.ToolCallID, ToolName: s.part.ToolName, Input: s.part.Input})
		}
	case llm.PartText, llm.PartThinking:
		s.part.Text = s.text.String()
	}
}

func (a *assembler) slot(index int) *slot {
	for _, s := range a.slots {
		if s.index == index {
			return s
		}
	}
	s := &slot{index: index}
	a.slots = append(a.slots, s)
	return s
}

// finish assembles the message in block order, with usage and stop reason.
func (a *assembler) finish() *llm.Response {
	slices.SortStableFunc(a.slots, func(x, y *slot) int { return x.index - y.index })
	m := &a.resp.Message
	m.Role = llm.RoleAssistant
	calls := 0
	for _, s := range a.slots {
		a.stop(s) // a block the stream never closed still says what it had
		switch {
		case s.part.Type == "":
			continue
		case s.part.Type == llm.PartText && s.part.Text == "":
			continue
		case s.part.Type == llm.PartToolUse:
			calls++
		}
		m.Content = append(m.Content, s.part)
	}
	if a.resp.StopReason == "" || (a.resp.StopReason == llm.StopEndTurn && calls > 0) {
		a.resp.StopReason = llm.StopEndTurn
		if calls > 0 {
			a.resp.StopReason = llm.StopToolUse
		}
	}
	a.emit(llm.Event{Type: llm.EventUsage, Usage: a.resp.Usage})
	a.emit(llm.Event{Type: llm.EventStop, StopReason: a.resp.StopReason})
	return &a.resp
}

// stopReason maps Converse's stop reasons to the neutral ones.
func stopReason(s string) llm.StopReason {
	switch s {
	case "tool_use":
		return llm.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return llm.StopMaxTokens
	case "guardrail_intervened", "content_filtered":
		return llm.StopRefusal
	}
	return llm.StopEndTurn // end_turn, stop_sequence
}
