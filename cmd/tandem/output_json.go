package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/tools"
)

// printJSON writes v to w as indented JSON: what a subcommand's --json
// prints.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonOutput is --output-format json (one result object when the run
// ends) and stream-json (one event per line as it happens, the result
// last). The events are documented in docs/cli.md; an update event carries
// the same Update JSON the ACP and LSP front doors send.
type jsonOutput struct {
	scr    *screen
	stream bool

	mu     sync.Mutex // guards enc and the fields below
	enc    *json.Encoder
	id     string
	answer strings.Builder
	calls  []*toolSummary
	byID   map[string]*toolSummary
}

// toolSummary is one tool call in the result object.
type toolSummary struct {
	ID     string           `json:"id"`
	Title  string           `json:"title"`
	Kind   tools.Kind       `json:"kind,omitempty"`
	Status agent.ToolStatus `json:"status"`
}

// Event shapes, one JSON object per stream-json line.
type (
	sessionEvent struct {
		Type      string `json:"type"` // "session"
		SessionID string `json:"sessionId"`
		Cwd       string `json:"cwd"`
		Mode      string `json:"mode"`
		Model     string `json:"model"`
	}
	updateEvent struct {
		Type      string       `json:"type"` // "update"
		SessionID string       `json:"sessionId"`
		Update    agent.Update `json:"update"`
	}
	permissionEvent struct {
		Type       string `json:"type"` // "permission"
		SessionID  string `json:"sessionId"`
		ToolCallID string `json:"toolCallId"`
		Title      string `json:"title"`
		Outcome    string `json:"outcome"` // allowed | rejected | cannot_ask
		By         string `json:"by"`      // user | --yes | --allow | nobody
	}
	resultEvent struct {
		Type       string         `json:"type"` // "result"
		SessionID  string         `json:"sessionId"`
		StopReason string         `json:"stopReason,omitempty"`
		ExitCode   int            `json:"exitCode"`
		Error      string         `json:"error,omitempty"`
		Answer     string         `json:"answer"`
		ToolCalls  []*toolSummary `json:"toolCalls"`
		Usage      usageJSON      `json:"usage"`
	}
	usageJSON struct {
		Requests         int      `json:"requests"`
		InputTokens      int      `json:"inputTokens"` // every input token, cached or not
		OutputTokens     int      `json:"outputTokens"`
		CacheReadTokens  int      `json:"cacheReadTokens"`
		CacheWriteTokens int      `json:"cacheWriteTokens"`
		ReasoningTokens  int      `json:"reasoningTokens"`
		CostUSD          *float64 `json:"costUsd,omitempty"` // absent when a model's price is unknown
	}
)

func newJSONOutput(w io.Writer, scr *screen, stream bool) *jsonOutput {
	return &jsonOutput{scr: scr, stream: stream, enc: json.NewEncoder(w), byID: map[string]*toolSummary{}}
}

func (o *jsonOutput) screen() *screen { return o.scr }

// emit writes one stream-json line.
func (o *jsonOutput) emit(v any) {
	if err := o.enc.Encode(v); err != nil {
		fmt.Fprintf(o.scr.err, "tandem run: writing an event: %v\n", err)
	}
}

func (o *jsonOutput) start(s *agent.Session) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.id = s.ID()
	if o.stream {
		o.emit(sessionEvent{Type: "session", SessionID: s.ID(), Cwd: s.Cwd(), Mode: string(s.Mode()), Model: s.Model()})
	}
}

func (o *jsonOutput) send(u agent.Update) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch u.Type {
	case agent.AgentMessageChunk:
		if u.Chunk != nil {
			o.answer.WriteString(u.Chunk.Text)
		}
	case agent.ToolCallStarted:
		c := &toolSummary{ID: u.Tool.ID, Title: u.Tool.Title, Kind: u.Tool.Kind, Status: u.Tool.Status}
		o.calls = append(o.calls, c)
		o.byID[c.ID] = c
	case agent.ToolCallUpdated:
		if c := o.byID[u.Tool.ID]; c != nil {
			if u.Tool.Title != "" {
				c.Title = u.Tool.Title
			}
			if u.Tool.Status != "" {
				c.Status = u.Tool.Status
			}
		}
	}
	if o.stream {
		o.emit(updateEvent{Type: "update", SessionID: o.id, Update: u})
	}
}

func (o *jsonOutput) edited(string, edits.FileEdit) {}

func (o *jsonOutput) permission(req agent.PermissionRequest, outcome, by string) {
	if !o.stream {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.emit(permissionEvent{Type: "permission", SessionID: o.id, ToolCallID: req.ToolCall.ID, Title: req.ToolCall.Title, Outcome: outcome, By: by})
}

func (o *jsonOutput) finish(r runResult) {
	o.scr.idle()
	o.mu.Lock()
	defer o.mu.Unlock()
	res := resultEvent{Type: "result", SessionID: o.id, StopReason: string(r.reason), ExitCode: r.code,
		Answer: o.answer.String(), ToolCalls: o.calls, Usage: usageOf(r.usage)}
	if res.ToolCalls == nil {
		res.ToolCalls = []*toolSummary{}
	}
	if r.err != nil {
		res.Error = r.err.Error()
		fmt.Fprintf(o.scr.err, "tandem run: %v\n", r.err)
	}
	o.emit(res)
}

func usageOf(t agent.UsageTotals) usageJSON {
	u := usageJSON{Requests: t.Requests, InputTokens: t.PromptTokens(), OutputTokens: t.OutputTokens,
		CacheReadTokens: t.CacheReadTokens, CacheWriteTokens: t.CacheWriteTokens, ReasoningTokens: t.ReasoningTokens}
	if t.Priced {
		cost := t.Cost
		u.CostUSD = &cost
	}
	return u
}
