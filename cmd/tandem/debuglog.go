package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/tools"
)

// debugPipeline adds contributors that log, at debug level, each model
// request and response, tool call, permission decision, edit and turn end.
// They log sizes, names, ids and outcomes, never contents: prompts, file
// text and command output stay out of the log, and so do secrets.
func debugPipeline(p *agent.Pipeline, log *slog.Logger) {
	if !log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	p.BeforeRequest = append(p.BeforeRequest, func(ctx context.Context, e agent.RequestEvent) error {
		log.Debug("model request", "session", e.SessionID, "model", e.Request.Model, "messages", len(e.Request.Messages),
			"tools", len(e.Request.Tools), "estimated_tokens", e.Estimate, "window", e.Window)
		return nil
	})
	p.AfterResponse = append(p.AfterResponse, func(ctx context.Context, e agent.ResponseEvent) {
		u := e.Response.Usage
		log.Debug("model response", "session", e.SessionID, "stop", e.Response.StopReason, "input_tokens", u.InputTokens,
			"cache_read", u.CacheReadTokens, "output_tokens", u.OutputTokens, "tool_calls", len(e.Response.ToolCalls()))
	})
	p.BeforeToolCall = append(p.BeforeToolCall, func(ctx context.Context, e agent.ToolCallEvent) (json.RawMessage, error) {
		log.Debug("tool call", "session", e.SessionID, "id", e.ToolCallID, "tool", e.Tool.Name, "group", e.Tool.Group, "input_bytes", len(e.Input))
		return nil, nil
	})
	p.AfterToolCall = append(p.AfterToolCall, func(ctx context.Context, e agent.ToolCallEvent, r agent.ToolResult) agent.ToolResult {
		log.Debug("tool result", "session", e.SessionID, "id", e.ToolCallID, "tool", e.Tool.Name, "error", r.IsError, "output_bytes", len(r.Output))
		return r
	})
	p.AfterAsk = append(p.AfterAsk, func(ctx context.Context, e agent.AskEvent, err error) {
		decision := "allowed"
		switch {
		case errors.Is(err, tools.ErrRejected):
			decision = "refused"
		case err != nil:
			decision = "failed"
		}
		log.Debug("permission", "session", e.SessionID, "id", e.Call.ID, "tool", e.Tool.Name, "decision", decision, "reason", errText(err))
	})
	p.AfterEdit = append(p.AfterEdit, func(ctx context.Context, e agent.EditEvent, r edits.Result, err error) {
		log.Debug("edit", "session", e.SessionID, "id", e.ToolCallID, "path", e.Edit.Path, "applied", r.Applied, "reason", r.Reason, "err", errText(err))
	})
	p.TurnEnd = append(p.TurnEnd, func(ctx context.Context, e agent.TurnEndEvent) {
		log.Debug("turn end", "session", e.SessionID, "stop", e.StopReason, "err", errText(e.Err))
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
