package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

type wireUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
}

// merge applies the counts present in u; message_delta repeats only some.
func (u wireUsage) merge(into *llm.Usage) {
	set := func(dst *int, src *int) {
		if src != nil {
			*dst = *src
		}
	}
	set(&into.InputTokens, u.InputTokens)
	set(&into.OutputTokens, u.OutputTokens)
	set(&into.CacheWriteTokens, u.CacheCreationInputTokens)
	set(&into.CacheReadTokens, u.CacheReadInputTokens)
}

// wireEvent holds the fields of every event type we read.
type wireEvent struct {
	Type    string `json:"type"`
	Message *struct {
		Usage wireUsage `json:"usage"`
	} `json:"message"`
	Index        int `json:"index"`
	ContentBlock *struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		Thinking  string          `json:"thinking"`
		Signature string          `json:"signature"`
		Data      string          `json:"data"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *wireUsage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// assembler turns events into the response message. Blocks are kept at
// their stream index so the message replays in the order it was produced.
type assembler struct {
	name   string // the provider's, for errors
	emit   func(llm.Event)
	blocks map[int]*llm.Part
	order  []int
	args   map[int][]byte // tool input JSON as it streams
	// texts gathers a text or thinking block's deltas: joining each onto
	// the part's text copied the whole block per delta, quadratic in a
	// long reply. finish sets the parts' texts from them.
	texts map[int]*strings.Builder
	resp  llm.Response
}

// textOf is block i's builder, started with what its part holds.
func (a *assembler) textOf(i int, p *llm.Part) *strings.Builder {
	b := a.texts[i]
	if b == nil {
		b = &strings.Builder{}
		b.WriteString(p.Text)
		a.texts[i] = b
	}
	return b
}

func readStream(ctx context.Context, bufs *llm.SSEBuffers, name string, body io.Reader, emit func(llm.Event)) (*llm.Response, error) {
	a := &assembler{name: name, emit: emit, blocks: map[int]*llm.Part{}, args: map[int][]byte{}, texts: map[int]*strings.Builder{}}
	a.resp.Message.Role = llm.RoleAssistant
	sse := bufs.Reader(body)
	defer sse.Close()
	// One event value for the stream, emptied for each event: the
	// assembler keeps none of it (strings are values), and a new one
	// per event was an allocation per delta.
	var w wireEvent
	for {
		ev, err := sse.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, llm.StreamError(ctx, a.name, "response stream ended before message_stop", err)
		}
		w = wireEvent{}
		if err := json.Unmarshal(ev.Data, &w); err != nil {
			return nil, llm.StreamError(ctx, a.name, fmt.Sprintf("bad %s event", ev.Name), err)
		}
		done, err := a.handle(&w)
		if err != nil {
			return nil, err
		}
		if done {
			return &a.resp, nil
		}
	}
}

func (a *assembler) handle(w *wireEvent) (done bool, err error) {
	switch w.Type {
	case "message_start":
		if w.Message != nil {
			w.Message.Usage.merge(&a.resp.Usage)
		}
	case "content_block_start":
		return false, a.start(w)
	case "content_block_delta":
		return false, a.delta(w)
	case "content_block_stop":
		return false, a.stop(w.Index)
	case "message_delta":
		if w.Delta != nil && w.Delta.StopReason != "" {
			a.resp.StopReason = stopReason(w.Delta.StopReason)
		}
		if w.Usage != nil {
			w.Usage.merge(&a.resp.Usage)
		}
	case "message_stop":
		a.finish()
		return true, nil
	case "error":
		msg := "error event without a message"
		if w.Error != nil {
			msg = w.Error.Message
			if w.Error.Type != "" {
				msg = w.Error.Type + ": " + msg
			}
		}
		return false, &llm.Error{Provider: a.name, Message: msg,
			Retryable: w.Error != nil && (w.Error.Type == "overloaded_error" || w.Error.Type == "api_error")}
	}
	// ping and event types added later are ignored.
	return false, nil
}

func (a *assembler) start(w *wireEvent) error {
	cb := w.ContentBlock
	if cb == nil {
		return &llm.Error{Provider: a.name, Message: "content_block_start without content_block"}
	}
	var p llm.Part
	switch cb.Type {
	case "text":
		p = llm.Part{Type: llm.PartText, Text: cb.Text}
		if cb.Text != "" {
			a.emit(llm.Event{Type: llm.EventText, Text: cb.Text})
		}
	case "thinking":
		p = llm.Part{Type: llm.PartThinking, Text: cb.Thinking, PartRare: &llm.PartRare{Signature: cb.Signature, Origin: llm.OriginAnthropic}}
		if cb.Thinking != "" {
			a.emit(llm.Event{Type: llm.EventReasoning, Text: cb.Thinking})
		}
	case "redacted_thinking":
		p = llm.Part{Type: llm.PartThinking, PartRare: &llm.PartRare{Redacted: cb.Data, Origin: llm.OriginAnthropic}}
	case "tool_use":
		p = llm.Part{Type: llm.PartToolUse, ToolCallID: cb.ID, ToolName: cb.Name}
		a.emit(llm.Event{Type: llm.EventToolCallStart, ToolCallID: cb.ID, ToolName: cb.Name})
	default:
		return nil // server-side tool blocks and the like: nothing we can replay
	}
	if _, dup := a.blocks[w.Index]; !dup {
		a.order = append(a.order, w.Index)
	}
	a.blocks[w.Index] = &p
	return nil
}

func (a *assembler) delta(w *wireEvent) error {
	p, d := a.blocks[w.Index], w.Delta
	if p == nil || d == nil {
		return nil
	}
	switch d.Type {
	case "text_delta":
		a.textOf(w.Index, p).WriteString(d.Text)
		a.emit(llm.Event{Type: llm.EventText, Text: d.Text})
	case "thinking_delta":
		a.textOf(w.Index, p).WriteString(d.Thinking)
		a.emit(llm.Event{Type: llm.EventReasoning, Text: d.Thinking})
	case "signature_delta":
		p.Rare().Signature += d.Signature
	case "input_json_delta":
		a.args[w.Index] = append(a.args[w.Index], d.PartialJSON...)
		if d.PartialJSON != "" {
			a.emit(llm.Event{Type: llm.EventToolCallDelta, ToolCallID: p.ToolCallID, Text: d.PartialJSON})
		}
	}
	return nil
}

func (a *assembler) stop(index int) error {
	p := a.blocks[index]
	if p == nil || p.Type != llm.PartToolUse {
		return nil
	}
	input := a.args[index]
	if len(input) == 0 {
		input = []byte("{}")
	}
	p.Input = llm.ToolInput(input)
	a.emit(llm.Event{Type: llm.EventToolCallEnd, ToolCallID: p.ToolCallID, ToolName: p.ToolName, Input: p.Input})
	return nil
}

func (a *assembler) finish() {
	for _, i := range a.order {
		p := a.blocks[i]
		if b := a.texts[i]; b != nil {
			p.Text = b.String()
		}
		if p.Type == llm.PartText && p.Text == "" {
			continue
		}
		a.resp.Message.Content = append(a.resp.Message.Content, *p)
	}
	if a.resp.StopReason == "" {
		a.resp.StopReason = llm.StopEndTurn
	}
	a.emit(llm.Event{Type: llm.EventUsage, Usage: a.resp.Usage})
	a.emit(llm.Event{Type: llm.EventStop, StopReason: a.resp.StopReason})
}

func stopReason(s string) llm.StopReason {
	switch s {
	case "tool_use":
		return llm.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return llm.StopMaxTokens
	case "refusal":
		return llm.StopRefusal
	default: // end_turn, stop_sequence, pause_turn
		return llm.StopEndTurn
	}
}
