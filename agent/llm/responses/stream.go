package responses

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// event is the union of the stream's typed events, the fields read.
type event struct {
	Type         string          `json:"type"`
	OutputIndex  int             `json:"output_index"`
	SummaryIndex int             `json:"summary_index"`
	Delta        string          `json:"delta"`
	Item         *item           `json:"item"`
	Response     *wireResponse   `json:"response"`
	Code         json.RawMessage `json:"code"` // "error" events; a string, sometimes null
	Message      string          `json:"message"`
}

type item struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        string          `json:"arguments"`
	Summary          json.RawMessage `json:"summary"`
	EncryptedContent string          `json:"encrypted_content"`
	Content          []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

type wireResponse struct {
	Status            string `json:"status"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Usage *struct {
		InputTokens        int `json:"input_tokens"`
		OutputTokens       int `json:"output_tokens"`
		InputTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

// slot is one output item being streamed, at its output_index.
type slot struct {
	index   int
	kind    string // item type
	text    strings.Builder
	summary int // summary_index of the last reasoning delta, -1 before any
	part    llm.Part
	done    bool
}

type assembler struct {
	emit    func(llm.Event)
	slots   []*slot
	refused bool
	resp    llm.Response
}

func readStream(ctx context.Context, bufs *llm.SSEBuffers, body io.Reader, emit func(llm.Event)) (*llm.Response, error) {
	a := &assembler{emit: emit}
	sse := bufs.Reader(body)
	defer sse.Close()
	for {
		ev, err := sse.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, llm.StreamError(ctx, name, "response stream ended before response.completed", err)
		}
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 || string(data) == "[DONE]" {
			continue
		}
		var e event
		if err := json.Unmarshal(data, &e); err != nil {
			return nil, llm.StreamError(ctx, name, "bad stream event", err)
		}
		if e.Type == "" {
			e.Type = ev.Name
		}
		done, err := a.event(&e)
		if err != nil || done {
			if err != nil {
				return nil, err
			}
			return &a.resp, nil
		}
	}
}

// event handles one event; done is true after the response's last.
func (a *assembler) event(e *event) (done bool, err error) {
	switch e.Type {
	case "response.output_item.added":
		if e.Item == nil {
			return false, nil
		}
		s := a.slot(e.OutputIndex, e.Item.Type)
		if e.Item.Type == "function_call" {
			s.part = llm.Part{Type: llm.PartToolUse, ToolCallID: e.Item.CallID, ToolName: e.Item.Name}
			a.emit(llm.Event{Type: llm.EventToolCallStart, ToolCallID: e.Item.CallID, ToolName: e.Item.Name})
		}
	case "response.output_text.delta", "response.refusal.delta":
		s := a.slot(e.OutputIndex, "message")
		s.text.WriteString(e.Delta)
		a.refused = a.refused || e.Type == "response.refusal.delta"
		a.emit(llm.Event{Type: llm.EventText, Text: e.Delta})
	case "response.reasoning_summary_text.delta":
		s := a.slot(e.OutputIndex, "reasoning")
		if s.summary >= 0 && e.SummaryIndex != s.summary {
			// A new summary part: keep them apart as the server does.
			s.text.WriteString("\n\n")
			a.emit(llm.Event{Type: llm.EventReasoning, Text: "\n\n"})
		}
		s.summary = e.SummaryIndex
		s.text.WriteString(e.Delta)
		a.emit(llm.Event{Type: llm.EventReasoning, Text: e.Delta})
	case "response.function_call_arguments.delta":
		s := a.slot(e.OutputIndex, "function_call")
		s.text.WriteString(e.Delta)
		a.emit(llm.Event{Type: llm.EventToolCallDelta, ToolCallID: s.part.ToolCallID, Text: e.Delta})
	case "response.output_item.done":
		if e.Item != nil {
			a.itemDone(a.slot(e.OutputIndex, e.Item.Type), e.Item)
		}
	case "response.completed", "response.incomplete":
		return true, a.finish(e.Response)
	case "response.failed":
		if e.Response != nil && e.Response.Error != nil {
			return false, failure(e.Response.Error.Code, e.Response.Error.Message)
		}
		return false, failure("", "the response failed")
	case "error":
		var code string
		json.Unmarshal(e.Code, &code)
		return false, failure(code, e.Message)
	}
	return false, nil
}

func (a *assembler) slot(index int, kind string) *slot {
	for _, s := range a.slots {
		if s.index == index {
			return s
		}
	}
	s := &slot{index: index, kind: kind, summary: -1}
	a.slots = append(a.slots, s)
	return s
}

// itemDone completes a slot from the item the server sends when it is
// done: the whole item wins over what the deltas built.
func (a *assembler) itemDone(s *slot, it *item) {
	if s.done {
		return
	}
	s.done = true
	s.kind = it.Type
	switch it.Type {
	case "function_call":
		args := it.Arguments
		if args == "" {
			args = s.text.String()
		}
		if s.part.ToolCallID == "" { // no output_item.added came first
			s.part = llm.Part{Type: llm.PartToolUse, ToolCallID: it.CallID, ToolName: it.Name}
			a.emit(llm.Event{Type: llm.EventToolCallStart, ToolCallID: it.CallID, ToolName: it.Name})
		}
		s.part.Input = llm.ToolInput([]byte(args))
		a.emit(llm.Event{Type: llm.EventToolCallEnd, ToolCallID: s.part.ToolCallID, ToolName: s.part.ToolName, Input: s.part.Input})
	case "reasoning":
		var parts []summaryText
		json.Unmarshal(it.Summary, &parts)
		texts := make([]string, len(parts))
		for i, p := range parts {
			texts[i] = p.Text
		}
		text := strings.Join(texts, "\n\n")
		if text == "" {
			text = s.text.String()
		}
		s.part = llm.Part{Type: llm.PartThinking, Text: text, PartRare: &llm.PartRare{Signature: it.EncryptedContent, Origin: llm.OriginOpenAI}}
		if len(parts) > 1 {
			s.part.PartRare.Extra = map[string]json.RawMessage{summaryExtra: it.Summary}
		}
	case "message":
		var b strings.Builder
		for _, c := range it.Content {
			b.WriteString(c.Text)
			b.WriteString(c.Refusal)
			a.refused = a.refused || c.Type == "refusal"
		}
		text := b.String()
		if text == "" {
			text = s.text.String()
		}
		s.part = llm.Part{Type: llm.PartText, Text: text}
	}
}

// finish assembles the message, in output order, with usage and stop reason.
func (a *assembler) finish(r *wireResponse) error {
	slices.SortStableFunc(a.slots, func(x, y *slot) int { return x.index - y.index })
	m := &a.resp.Message
	m.Role = llm.RoleAssistant
	calls := 0
	for _, s := range a.slots {
		if !s.done {
			// A stream that never closed its item still says what it had.
			a.itemDone(s, &item{Type: s.kind, CallID: s.part.ToolCallID, Name: s.part.ToolName})
		}
		switch {
		case s.part.Type == llm.PartToolUse:
			calls++
		case s.part.Type == llm.PartText && s.part.Text == "":
			continue
		case s.part.Type == "":
			continue // an item kind tandem does not use
		}
		m.Content = append(m.Content, s.part)
	}
	var reason string
	if r != nil {
		if u := r.Usage; u != nil {
			a.resp.Usage = llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
			// Cached tokens apart, not included, as on every wire.
			if d := u.InputTokensDetails; d != nil && d.CachedTokens <= u.InputTokens {
				a.resp.Usage.CacheReadTokens = d.CachedTokens
				a.resp.Usage.InputTokens -= d.CachedTokens
			}
			if d := u.OutputTokensDetails; d != nil {
				a.resp.Usage.ReasoningTokens = d.ReasoningTokens
			}
		}
		if d := r.IncompleteDetails; d != nil {
			reason = d.Reason
		}
	}
	switch {
	case reason == "max_output_tokens":
		a.resp.StopReason = llm.StopMaxTokens
	case reason == "content_filter" || a.refused:
		a.resp.StopReason = llm.StopRefusal
	case calls > 0:
		a.resp.StopReason = llm.StopToolUse
	default:
		a.resp.StopReason = llm.StopEndTurn
	}
	a.emit(llm.Event{Type: llm.EventUsage, Usage: a.resp.Usage})
	a.emit(llm.Event{Type: llm.EventStop, StopReason: a.resp.StopReason})
	return nil
}

// failure maps an error the stream reports to the *llm.Error an HTTP
// answer with the same meaning would have been, so compaction, retry and
// the editor's messages treat it alike: the request was too long (400,
// which compaction recognises by the code in the message), too many
// requests (429), the server failing (500), both worth sending again.
func failure(code, msg string) error {
	e := &llm.Error{Provider: name, Message: "error in response stream: " + msg}
	if code != "" && !strings.Contains(msg, code) {
		e.Message = "error in response stream: " + code + ": " + msg
	}
	switch code {
	case "context_length_exceeded":
		e.Status = http.StatusBadRequest
	case "rate_limit_exceeded":
		e.Status, e.Retryable = http.StatusTooManyRequests, true
	case "server_error", "server_is_overloaded", "slow_down":
		e.Status, e.Retryable = http.StatusInternalServerError, true
	case "invalid_prompt":
		e.Status = http.StatusBadRequest
	}
	return e
}
