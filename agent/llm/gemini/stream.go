package gemini

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/tandemhq/tandem/agent/llm"
)

// chunk is one streamed GenerateContentResponse, the fields read, or an
// error the stream reports in its place.
type chunk struct {
	Candidates []struct {
		Content struct {
			Parts []wirePart `json:"parts"`
		} `json:"content"`
		FinishReason  string `json:"finishReason"`
		FinishMessage string `json:"finishMessage"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	UsageMetadata *struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

type wirePart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   json.RawMessage `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	ThoughtSignature string `json:"thoughtSignature"`
}

type assembler struct {
	emit   func(llm.Event)
	parts  []llm.Part
	finish string // the candidate's finishReason, once sent
	block  string // promptFeedback.blockReason
	usage  llm.Usage
	calls  int
}

func (p *Provider) readStream(ctx context.Context, body io.Reader, emit func(llm.Event)) (*llm.Response, error) {
	a := &assembler{emit: emit}
	sse := p.sse.Reader(body)
	defer sse.Close()
	for {
		ev, err := sse.Next()
		if errors.Is(err, io.EOF) && (a.finish != "" || a.block != "") {
			return a.done(), nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, llm.StreamError(ctx, p.opts.Name, "response stream ended before its finish reason", err)
		}
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 {
			continue
		}
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, llm.StreamError(ctx, p.opts.Name, "bad stream event", err)
		}
		if c.Error != nil {
			return nil, p.failure(c.Error.Code, c.Error.Status, c.Error.Message)
		}
		a.chunk(&c)
	}
}

func (a *assembler) chunk(c *chunk) {
	if u := c.UsageMetadata; u != nil {
		// promptTokenCount includes the cached tokens, candidates exclude
		// the thoughts: tandem counts input without the cached tokens and
		// output with the thinking, as on every wire.
		a.usage = llm.Usage{InputTokens: max(u.PromptTokenCount-u.CachedContentTokenCount, 0), CacheReadTokens: u.CachedContentTokenCount,
			OutputTokens: u.CandidatesTokenCount + u.ThoughtsTokenCount, ReasoningTokens: u.ThoughtsTokenCount}
	}
	if f := c.PromptFeedback; f != nil && f.BlockReason != "" {
		a.block = f.BlockReason
	}
	if len(c.Candidates) == 0 {
		return
	}
	cand := c.Candidates[0]
	for i := range cand.Content.Parts {
		a.part(&cand.Content.Parts[i])
	}
	if f := cand.FinishReason; f != "" {
		a.finish = f
		if len(a.parts) == 0 && f != "STOP" && f != "MAX_TOKENS" {
			// Nothing came (blocked, a malformed call): say why, in the
			// answer's place, or the user sees an empty turn.
			msg := "Gemini stopped (" + f + ")"
			if cand.FinishMessage != "" {
				msg += ": " + cand.FinishMessage
			}
			a.text(msg, "")
		}
	}
}

// part adds one streamed part: text and thoughts join the part of their
// kind they follow, a function call is a part of its own, and a
// signature stays on the part it came with.
func (a *assembler) part(w *wirePart) {
	switch {
	case w.FunctionCall != nil:
		args := w.FunctionCall.Args
		if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		pt := llm.Part{Type: llm.PartToolUse, ToolName: w.FunctionCall.Name, Input: llm.ToolInput(args)}
		var id string
		if json.Unmarshal(w.FunctionCall.ID, &id) == nil && id != "" {
			pt.ToolCallID = id
			pt.Rare().Extra = map[string]json.RawMessage{idExtra: w.FunctionCall.ID}
		} else {
			pt.ToolCallID = newCallID()
		}
		if w.ThoughtSignature != "" {
			pt.Rare().Signature, pt.Rare().Origin = w.ThoughtSignature, llm.OriginGoogle
		}
		a.parts = append(a.parts, pt)
		a.calls++
		// Gemini sends a call whole: its start, arguments and end at once.
		a.emit(llm.Event{Type: llm.EventToolCallStart, ToolCallID: pt.ToolCallID, ToolName: pt.ToolName})
		a.emit(llm.Event{Type: llm.EventToolCallDelta, ToolCallID: pt.ToolCallID, Text: string(pt.Input)})
		a.emit(llm.Event{Type: llm.EventToolCallEnd, ToolCallID: pt.ToolCallID, ToolName: pt.ToolName, Input: pt.Input})
	case w.Text != nil && w.Thought:
		a.add(llm.PartThinking, *w.Text, w.ThoughtSignature)
		if *w.Text != "" {
			a.emit(llm.Event{Type: llm.EventReasoning, Text: *w.Text})
		}
	case w.Text != nil:
		a.text(*w.Text, w.ThoughtSignature)
	case w.ThoughtSignature != "":
		a.add(llm.PartText, "", w.ThoughtSignature)
	}
}

func (a *assembler) text(s, sig string) {
	a.add(llm.PartText, s, sig)
	if s != "" {
		a.emit(llm.Event{Type: llm.EventText, Text: s})
	}
}

// add appends s to the last part when it is of typ and has no signature
// yet (a signature closes the part it is on), else starts a part. A
// signature arriving alone, with no text (Gemini sends it in the last
// chunk), goes on the part before it when that has none.
func (a *assembler) add(typ llm.PartType, s, sig string) {
	n := len(a.parts)
	var last *llm.Part
	if n > 0 {
		last = &a.parts[n-1]
	}
	switch {
	case last != nil && last.Type == typ && last.Signature() == "":
		last.Text += s
	case s == "" && sig != "" && last != nil && last.Type != llm.PartToolUse && last.Signature() == "":
	case s == "" && sig == "":
		return
	default:
		a.parts = append(a.parts, llm.Part{Type: typ, Text: s})
		last = &a.parts[len(a.parts)-1]
		if typ == llm.PartThinking {
			last.Rare().Origin = llm.OriginGoogle
		}
	}
	if sig != "" {
		last.Rare().Signature, last.Rare().Origin = sig, llm.OriginGoogle
	}
}

// stop maps the finish reason (or a blocked prompt) to tandem's.
func (a *assembler) stop() llm.StopReason {
	switch {
	case a.block != "":
		return llm.StopRefusal
	case a.finish == "MAX_TOKENS":
		return llm.StopMaxTokens
	case a.finish == "SAFETY" || a.finish == "RECITATION" || a.finish == "BLOCKLIST" || a.finish == "PROHIBITED_CONTENT" ||
		a.finish == "SPII" || a.finish == "IMAGE_SAFETY" || a.finish == "LANGUAGE":
		return llm.StopRefusal
	case a.calls > 0:
		return llm.StopToolUse
	}
	return llm.StopEndTurn
}

func (a *assembler) done() *llm.Response {
	resp := &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: a.parts}, StopReason: a.stop(), Usage: a.usage}
	if a.block != "" && len(a.parts) == 0 {
		msg := "The prompt was blocked (" + a.block + ")."
		resp.Message.Content = []llm.Part{{Type: llm.PartText, Text: msg}}
		a.emit(llm.Event{Type: llm.EventText, Text: msg})
	}
	a.emit(llm.Event{Type: llm.EventUsage, Usage: a.usage})
	a.emit(llm.Event{Type: llm.EventStop, StopReason: resp.StopReason})
	return resp
}

// failure maps an error the stream reports in place of a chunk to the
// *llm.Error an HTTP answer with its code would have been, so retry,
// compaction and the editor treat it alike.
func (p *Provider) failure(code int, status, msg string) error {
	e := &llm.Error{Provider: p.opts.Name, Status: code, Message: "error in response stream: " + msg}
	if status != "" {
		e.Message = "error in response stream: " + status + ": " + msg
	}
	switch {
	case code == http.StatusTooManyRequests || code >= 500 || status == "RESOURCE_EXHAUSTED" || status == "UNAVAILABLE" || status == "INTERNAL":
		e.Retryable = true
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.KeyEnv = p.opts.KeyEnv
	}
	return e
}

// newCallID names a call the server gave no id: unique in the session, as
// an editor needs its tool calls' ids to be.
func newCallID() string {
	var b [8]byte
	rand.Read(b[:])
	return fmt.Sprintf("call_%s", hex.EncodeToString(b[:]))
}
