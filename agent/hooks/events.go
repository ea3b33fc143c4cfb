package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent"
)

const (
	// closeBudget bounds SessionEnd hooks: a closing session waits for them.
	closeBudget = 10 * time.Second
	// maxForced bounds the rounds Stop hooks can force in one turn, for
	// hooks that ignore stop_hook_active.
	maxForced = 8
)

// result folds the outcomes of one event's hooks.
type result struct {
	block   bool // a hook blocked (exit 2, decision block, deny)
	halt    bool // a hook said "continue": false
	reason  string
	context []string
	input   json.RawMessage
}

// fire runs event's hooks matching tool for a session, in order, telling
// the user about failures; the first that blocks or halts ends the event.
func (h *Hooks) fire(ctx context.Context, ss *session, event, tool string, in input) result {
	return h.fireWith(ctx, ss, event, tool, func() input { return in })
}

// fireWith is fire with the hooks' input made only when a hook matches:
// the tool events fire at every step, and most sessions have no hook, so
// the input (the call's arguments rewritten for Claude Code) would be
// built for nothing.
func (h *Hooks) fireWith(ctx context.Context, ss *session, event, tool string, mk func() input) result {
	srcs := h.current(ss)
	if len(srcs) == 0 {
		return result{}
	}
	root := ss.s.Root()
	d := digest(srcs)
	h.sessionsMu.Lock()
	ok := d == "" || ss.accepted == d
	h.sessionsMu.Unlock()
	ok = ok || h.consents().Has(root, d)
	list := matching(srcs, event, tool, func(s *Source) bool { return !s.Project || ok })
	if len(list) == 0 {
		return result{}
	}
	in := mk()
	in.SessionID, in.Cwd, in.HookEventName = ss.s.ID(), ss.s.Cwd(), event
	in.PermissionMode = permissionMode(ss.s.Mode())
	var r result
	for _, k := range list {
		if k.Type != "command" {
			ss.s.Notice(fmt.Sprintf("A %s hook of type %q in %s was skipped: tandem runs command hooks only.", event, k.Type, k.src.Path))
			continue
		}
		if len(r.input) > 0 {
			in.ToolInput = r.input
		}
		o := h.run(ctx, k, root, in)
		if o.notice != "" {
			ss.s.Notice(o.notice)
		}
		if o.plain != "" && (event == UserPromptSubmit || event == SessionStart) {
			r.context = append(r.context, o.plain) // as in Claude Code: elsewhere it is only logged
		}
		if o.context != "" {
			r.context = append(r.context, o.context)
		}
		if len(o.input) > 0 && json.Valid(o.input) && strings.HasPrefix(strings.TrimSpace(string(o.input)), "{") {
			r.input = o.input
		}
		if o.block || o.halt {
			r.block, r.halt, r.reason = o.block, o.halt, o.reason
			if r.reason == "" {
				r.reason = "no reason given"
			}
			return r
		}
	}
	return r
}

// userPrompt asks for consent to the repository's hooks when they are new,
// runs SessionStart once per session and then UserPromptSubmit: their
// output is context for the prompt, and a block stops the prompt.
func (h *Hooks) userPrompt(ctx context.Context, e agent.TurnStartEvent) (string, error) {
	ss := h.lookup(e.SessionID)
	if ss == nil {
		return "", nil
	}
	if err := h.askConsent(ctx, ss); err != nil {
		return "", err
	}
	var extra []string
	var first bool
	h.update(ss, func(ss *session) { first, ss.started = !ss.started, true })
	if first {
		// A SessionStart hook cannot block anything; its reason is for the user.
		r := h.fire(ctx, ss, SessionStart, "", input{Source: "startup"})
		if r.block || r.halt {
			ss.s.Notice("A SessionStart hook said: " + r.reason)
		}
		extra = append(extra, r.context...)
	}
	text := promptText(e.Prompt)
	r := h.fire(ctx, ss, UserPromptSubmit, "", input{Prompt: &text})
	if r.block || r.halt {
		return "", fmt.Errorf("A UserPromptSubmit hook blocked this prompt: %s", r.reason)
	}
	return strings.Join(append(extra, r.context...), "\n\n"), nil
}

func promptText(blocks []agent.ContentBlock) string {
	var b strings.Builder
	for _, c := range blocks {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// beforeToolCall runs PreToolUse: a block refuses the call with the hook's
// reason, updatedInput rewrites the arguments. "allow" and "ask" leave the
// call to tandem's permission policy: a hook can refuse what the policy
// would allow, never skip the user's prompt.
func (h *Hooks) beforeToolCall(ctx context.Context, e agent.ToolCallEvent) (json.RawMessage, error) {
	ss := h.lookup(e.SessionID)
	if ss == nil {
		return nil, nil
	}
	r := h.fireWith(ctx, ss, PreToolUse, e.Tool.Name, func() input {
		return input{ToolName: claudeName(e.Tool.Name), ToolInput: claudeInput(ss.s.Root(), e.Input)}
	})
	if r.block || r.halt {
		return nil, errors.New("A PreToolUse hook blocked this call: " + r.reason)
	}
	if len(r.input) == 0 {
		return nil, nil
	}
	return tandemInput(r.input), nil
}

// afterToolCall runs PostToolUse; what the hooks say for the model (a
// block's reason, additionalContext) follows the tool's output.
func (h *Hooks) afterToolCall(ctx context.Context, e agent.ToolCallEvent, res agent.ToolResult) agent.ToolResult {
	ss := h.lookup(e.SessionID)
	if ss == nil {
		return res
	}
	r := h.fireWith(ctx, ss, PostToolUse, e.Tool.Name, func() input {
		resp := map[string]any{"output": res.Output, "is_error": res.IsError}
		return input{ToolName: claudeName(e.Tool.Name), ToolInput: claudeInput(ss.s.Root(), e.Input), ToolResponse: resp}
	})
	notes := r.context
	if r.block || r.halt {
		notes = append(notes, r.reason)
	}
	for _, n := range notes {
		res.Output += "\n\n[PostToolUse hook] " + n
	}
	return res
}

// beforeStop runs Stop: a block sends its reason to the model for one more
// round. stop_hook_active tells the hook it already did so this turn.
func (h *Hooks) beforeStop(ctx context.Context, e agent.StopEvent) string {
	ss := h.lookup(e.SessionID)
	if ss == nil || e.Continued >= maxForced {
		return ""
	}
	active := e.Continued > 0
	r := h.fire(ctx, ss, Stop, "", input{StopHookActive: &active})
	if !r.block || r.halt { // "continue": false means stop, whatever else it says
		return ""
	}
	return "A Stop hook asks you to continue: " + r.reason
}

// claudeInput is a tool's arguments as a Claude Code hook reads them:
// tandem's own fields, plus file_path (absolute) for a path, the field
// Claude Code's file tools use.
func claudeInput(root string, in json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(in, &m) != nil {
		return in
	}
	if p, ok := m["path"].(string); ok {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		m["file_path"] = p
	}
	b, err := json.Marshal(m)
	if err != nil {
		return in
	}
	return b
}

// tandemInput reads a hook's updatedInput back: file_path becomes path
// again, the tools resolving it against the root as usual.
func tandemInput(in json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(in, &m) != nil {
		return nil
	}
	if p, ok := m["file_path"].(string); ok {
		m["path"] = p
		delete(m, "file_path")
	}
	b, _ := json.Marshal(m)
	return b
}

// permissionMode names a tandem mode as Claude Code names the nearest of
// its permission modes; other modes keep their own name.
func permissionMode(m agent.Mode) string {
	switch m {
	case agent.ModeCode:
		return "default"
	case agent.ModeAsk:
		return "plan"
	case agent.ModeAutoEdit:
		return "acceptEdits"
	case agent.ModeFullAuto:
		return "bypassPermissions"
	}
	return string(m)
}
