package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// The deciding hooks run the session's plugins in registration order
// with reducer semantics: each sees what the earlier ones left (rewritten
// arguments, a rewritten result), and the first refusal ends the seam. A
// hook that fails or runs over its budget is skipped: its plugin has no
// say in that call, and the turn goes on.

// decide calls hook on every instance that implements it, in order, and
// hands each answer to fold; fold returns false to stop.
func decide[R any](ctx context.Context, ss *session, hook string, params func() any, fold func(in *instance, r *R) bool) {
	for _, in := range ss.instances() {
		p := in.current(hook)
		if p == nil {
			continue
		}
		var r *R
		if in.call(ctx, p, sdk.HookPrefix+hook, in.budget(), params(), &r) != nil || r == nil {
			continue
		}
		if !fold(in, r) {
			return
		}
	}
}

func refused(in *instance, reason string) error {
	if reason == "" {
		reason = "no reason given"
	}
	return fmt.Errorf("the %s plugin refused it: %s", in.name(), reason)
}

func (r *Runtime) beforeToolCall(ctx context.Context, e agent.ToolCallEvent) (json.RawMessage, error) {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return nil, nil
	}
	args, changed := e.Input, false
	var deny error
	decide(ctx, ss, sdk.HookBeforeToolCall,
		func() any {
			return sdk.BeforeToolCallParams{SessionID: e.SessionID, ToolCallID: e.ToolCallID, Tool: e.Tool.Name, Arguments: args}
		},
		func(in *instance, res *sdk.BeforeToolCallResult) bool {
			if res.Allow != nil && !*res.Allow {
				deny = refused(in, res.Reason)
				return false
			}
			if len(res.Arguments) > 0 {
				if !llm.IsObject(res.Arguments) {
					in.log.Warn("beforeToolCall arguments are not a JSON object; ignored")
					return true
				}
				args, changed = res.Arguments, true
			}
			return true
		})
	if deny != nil || !changed {
		return nil, deny
	}
	return args, nil
}

func (r *Runtime) afterToolCall(ctx context.Context, e agent.ToolCallEvent, res agent.ToolResult) agent.ToolResult {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return res
	}
	decide(ctx, ss, sdk.HookAfterToolCall,
		func() any {
			out := sdk.Text(res.Output)
			out.IsError = res.IsError
			return sdk.AfterToolCallParams{SessionID: e.SessionID, ToolCallID: e.ToolCallID, Tool: e.Tool.Name, Arguments: e.Input, Result: out}
		},
		func(_ *instance, a *sdk.AfterToolCallResult) bool {
			if a.Result != nil {
				res = agent.ToolResult{Output: a.Result.TextOf(), IsError: a.Result.IsError}
			}
			return true
		})
	return res
}

func (r *Runtime) beforeAsk(ctx context.Context, e agent.AskEvent) (agent.AskAnswer, error) {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return agent.AskAsUsual, nil
	}
	var deny error
	answer := agent.AskAsUsual
	decide(ctx, ss, sdk.HookBeforeAsk,
		func() any {
			return sdk.BeforeAskParams{SessionID: e.SessionID, ToolCallID: e.Call.ID, Tool: e.Tool.Name,
				Title: e.Ask.Title, Kind: string(e.Ask.Kind), Path: e.Ask.Path, Command: e.Ask.Command}
		},
		func(in *instance, a *sdk.BeforeAskResult) bool {
			switch a.Decision {
			case "deny":
				deny = refused(in, a.Reason)
				return false
			case "approve":
				answer = agent.AskApprove
			}
			return true
		})
	if deny != nil {
		return agent.AskAsUsual, deny
	}
	return answer, nil
}

func (r *Runtime) afterAsk(ctx context.Context, e agent.AskEvent, err error) {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return
	}
	p := sdk.AfterAskParams{SessionID: e.SessionID, ToolCallID: e.Call.ID, Tool: e.Tool.Name, Outcome: "allowed"}
	switch {
	case errors.Is(err, tools.ErrRejected):
		p.Outcome, p.Reason = "rejected", err.Error()
	case err != nil:
		p.Outcome = "cancelled"
	}
	ss.observe(ctx, sdk.HookAfterAsk, p)
}

func (r *Runtime) beforeEdit(ctx context.Context, e agent.EditEvent) error {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return nil
	}
	var deny error
	decide(ctx, ss, sdk.HookBeforeFileEdit,
		func() any {
			return sdk.BeforeFileEditParams{SessionID: e.SessionID, ToolCallID: e.ToolCallID, Path: e.Edit.Path,
				Exists: !e.Edit.Create, Before: e.Edit.Old, After: e.Edit.New, Delete: e.Edit.Delete}
		},
		func(in *instance, a *sdk.BeforeFileEditResult) bool {
			if a.Allow != nil && !*a.Allow {
				deny = refused(in, a.Reason)
				return false
			}
			return true
		})
	return deny
}

func (r *Runtime) afterEdit(ctx context.Context, e agent.EditEvent, res edits.Result, err error) {
	if ss := r.lookup(e.SessionID); ss != nil {
		ss.observe(ctx, sdk.HookAfterFileEdit, sdk.AfterFileEditParams{SessionID: e.SessionID, ToolCallID: e.ToolCallID,
			Path: e.Edit.Path, Applied: err == nil && res.Applied, Reason: res.Reason})
	}
}

// observe sends an observing hook to every instance that implements it.
func (ss *session) observe(ctx context.Context, hook string, params any) {
	for _, in := range ss.instances() {
		in.notify(ctx, hook, params)
	}
}
