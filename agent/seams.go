package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// The runners below call a seam's contributors with the reducer semantics
// Pipeline documents.

func (p *Pipeline) turnStart(ctx context.Context, e TurnStartEvent) {
	for _, f := range p.TurnStart {
		f(ctx, e)
	}
}

func (p *Pipeline) turnEnd(ctx context.Context, e TurnEndEvent) {
	for _, f := range p.TurnEnd {
		f(ctx, e)
	}
}

func (p *Pipeline) beforeRequest(ctx context.Context, e RequestEvent) error {
	for _, f := range p.BeforeRequest {
		if err := f(ctx, e); err != nil {
			return fmt.Errorf("before the model request: %w", err)
		}
	}
	return nil
}

func (p *Pipeline) afterResponse(ctx context.Context, e ResponseEvent) {
	for _, f := range p.AfterResponse {
		f(ctx, e)
	}
}

// beforeToolCall returns the arguments to run the call with, or why not.
// The mode check comes first: a tool the mode does not offer never reaches
// a contributor. rs are the rules in force for a read tool (its deny
// rules apply), empty for any other.
// now is the turn's view.
func (s *Session) beforeToolCall(ctx context.Context, now turnView, e ToolCallEvent, rs policy.Rules) (json.RawMessage, error) {
	mode := now.mode
	if !now.defs.modes.exposes(mode, e.Tool.Group) {
		return nil, fmt.Errorf("the tool %s is not available in %s mode", e.Tool.Name, mode)
	}
	for _, f := range s.a.cfg.Pipeline.BeforeToolCall {
		in, err := f(ctx, e)
		if err != nil {
			return nil, err
		}
		if in != nil {
			e.Input = in
		}
	}
	if err := s.perms.checkRead(mode, e, rs); err != nil {
		return nil, err
	}
	return e.Input, nil
}

func (p *Pipeline) afterToolCall(ctx context.Context, e ToolCallEvent, r ToolResult) ToolResult {
	for _, f := range p.AfterToolCall {
		r = f(ctx, e, r)
	}
	return r
}

// beforeAsk runs the BeforeAsk contributors and then the permission policy
// (Session.judgeAsk), which may ask the user; AfterAsk contributors see the
// outcome. A contributor's refusal reaches the tool as tools.ErrRejected.
// now is the turn's view.
func (s *Session) beforeAsk(ctx context.Context, now turnView, e AskEvent) error {
	p := &s.a.cfg.Pipeline
	err := func() error {
		approved := false
		for _, f := range p.BeforeAsk {
			a, err := f(ctx, e)
			if err != nil {
				if errors.Is(err, tools.ErrRejected) || ctx.Err() != nil {
					return err
				}
				return fmt.Errorf("%w: %w", tools.ErrRejected, err)
			}
			// An approval does not stop the others: a later refusal wins.
			approved = approved || a == AskApprove
		}
		return s.perms.judgeAsk(ctx, now, e.Call, e.Tool, e.Ask, true, approved)
	}()
	for _, f := range p.AfterAsk {
		f(ctx, e, err)
	}
	return err
}

// editHost is the Host the tools see: every write goes through ApplyEdit
// (invariant 2), so wrapping it is how the edit seams see every edit.
type editHost struct {
	tools.Host
	pipe *Pipeline
	e    EditEvent // SessionID and ToolCallID; Edit is set per call
}

func (h editHost) ApplyEdit(ctx context.Context, fe edits.FileEdit) (edits.Result, error) {
	e := h.e
	e.Edit = fe
	for _, f := range h.pipe.BeforeEdit {
		if err := f(ctx, e); err != nil {
			return edits.Result{Applied: false, Reason: err.Error()}, nil
		}
	}
	r, err := h.Host.ApplyEdit(ctx, fe)
	for _, f := range h.pipe.AfterEdit {
		f(ctx, e, r, err)
	}
	return r, err
}

// userPrompt collects the contributors' context for a prompt, or the
// first refusal.
func (p *Pipeline) userPrompt(ctx context.Context, e TurnStartEvent) (string, error) {
	var extra []string
	for _, f := range p.UserPrompt {
		text, err := f(ctx, e)
		if err != nil {
			return "", err
		}
		if text != "" {
			extra = append(extra, text)
		}
	}
	return strings.Join(extra, "\n\n"), nil
}

// beforeStop returns the first reason a contributor gives to go on.
func (p *Pipeline) beforeStop(ctx context.Context, e StopEvent) string {
	for _, f := range p.BeforeStop {
		if r := f(ctx, e); r != "" {
			return r
		}
	}
	return ""
}
