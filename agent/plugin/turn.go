package plugin

import (
	"context"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// turnStart makes sure the session's plugins are started and current
// (plugins.json may have changed since the last look), then tells them.
func (r *Runtime) turnStart(ctx context.Context, e agent.TurnStartEvent) {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return
	}
	ss.waitReady(ctx)
	r.watch.check()
	var text strings.Builder
	for _, b := range e.Prompt {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	p := sdk.MessageParams{SessionID: e.SessionID, Text: text.String()}
	ss.observe(ctx, sdk.HookUserMessage, p)
	ss.observe(ctx, sdk.HookTurnStart, p)
}

func (r *Runtime) turnEnd(ctx context.Context, e agent.TurnEndEvent) {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return
	}
	p := sdk.TurnEndParams{SessionID: e.SessionID, StopReason: string(e.StopReason)}
	if e.Err != nil {
		p.Error = e.Err.Error()
	}
	ss.observe(ctx, sdk.HookTurnEnd, p)
}

// beforeRequest puts the plugins' system prompt in the request and tells
// them a request starts.
func (r *Runtime) beforeRequest(ctx context.Context, e agent.RequestEvent) error {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return nil
	}
	e.Request.System = ss.systemPrompt(ctx, e.Request.System)
	ss.mu.Lock()
	ss.start, ss.model = time.Now(), e.Request.Model
	ss.mu.Unlock()
	ss.observe(ctx, sdk.HookModelRequestStart, sdk.ModelRequestStartParams{SessionID: e.SessionID,
		Model: e.Request.Model, EstimatedInputTokens: e.Estimate, ContextWindow: e.Window})
	return nil
}

func (r *Runtime) afterResponse(ctx context.Context, e agent.ResponseEvent) {
	ss := r.lookup(e.SessionID)
	if ss == nil {
		return
	}
	ss.mu.Lock()
	took, model := time.Since(ss.start), ss.model
	ss.mu.Unlock()
	var text strings.Builder
	for _, p := range e.Response.Message.Content {
		if p.Type == llm.PartText {
			text.WriteString(p.Text)
		}
	}
	if text.Len() > 0 {
		ss.observe(ctx, sdk.HookAssistantMessage, sdk.MessageParams{SessionID: e.SessionID, Text: text.String()})
	}
	u := e.Response.Usage
	ss.observe(ctx, sdk.HookModelRequestFinish, sdk.ModelRequestFinishParams{SessionID: e.SessionID, Model: model,
		StopReason: string(e.Response.StopReason), InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens, DurationMs: took.Milliseconds()})
}

// promptCache is the system prompt the plugins made of a base prompt, for
// one set of plugins.
type promptCache struct {
	set       bool
	base, out string
	rev       int
}

// systemPrompt returns base as the session's plugins transform it. The
// transforms run when the session starts and again only when its set of
// plugins changes; every other request gets the same bytes, so the
// model's prompt cache keeps working.
func (ss *session) systemPrompt(ctx context.Context, base string) string {
	ss.mu.Lock()
	c, rev := ss.prompt, ss.rev
	ss.mu.Unlock()
	if c.set && c.base == base && c.rev == rev {
		return c.out
	}
	out := base
	for _, in := range ss.instances() {
		p := in.current("")
		if p == nil || !in.transforms() {
			continue
		}
		var res sdk.TransformResult
		if in.call(ctx, p, sdk.MethodTransform, in.budget(), sdk.TransformParams{SessionID: ss.id, Prompt: out}, &res) == nil && res.Prompt != "" {
			out = res.Prompt
		}
	}
	ss.mu.Lock()
	ss.prompt = promptCache{set: true, base: base, out: out, rev: rev}
	ss.mu.Unlock()
	return out
}

// transforms reports whether the plugin transforms the system prompt and
// may.
func (i *instance) transforms() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.offer.SystemPrompt && !i.st.Manifest.Permissions.SystemPrompt {
		i.log.Warn("systemPrompt/transform offered without permissions.systemPrompt; not used")
		return false
	}
	return i.offer.SystemPrompt
}
