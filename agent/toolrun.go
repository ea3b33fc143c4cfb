package agent

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
)

// The tool stage's order and checks are package turn's (turn/tools.go);
// the methods below are the session's side of a call: what the editor
// sees of it, the seams, the log, and the environment it runs in.

// Refuse reports a call the model should not have made: it is shown
// failed, with why.
func (t *turnRun) Refuse(call llm.Part, input json.RawMessage, kind tools.Kind, msg string) {
	t.emit(Update{Type: ToolCallStarted, Tool: &ToolCall{ID: t.callID(call.ToolCallID), Title: call.ToolName, Name: call.ToolName, Kind: kind, Status: ToolFailed, RawInput: input, Content: []ToolContent{TextContent(msg)}}})
}

// NextGroup takes the newest view: no call of the turn runs now.
func (t *turnRun) NextGroup() { t.refreshView() }

// toolCall is one announced call (turn.Call).
type toolCall struct {
	t     *turnRun
	tool  tools.Tool
	info  tools.Info
	tc    ToolCall
	ev    ToolCallEvent
	live  *liveTerm
	shown *shownEdits
	// rs are the rules a read's deny rules come from: fetched once, for
	// the call and for each file it lists or searches.
	rs      policy.Rules
	started sync.Once
}

// Open announces call.
func (t *turnRun) Open(call llm.Part, tool tools.Tool, input json.RawMessage) turn.Call {
	s, info := t.s, tool.Info()
	pv := tool.Describe(s.root, input)
	tc := ToolCall{ID: t.callID(call.ToolCallID), Title: pv.Title, Name: call.ToolName, Kind: info.Kind, Status: ToolPending, Locations: pv.Locations, RawInput: input, Nest: t.sub.nesting()}
	if tc.Title == "" {
		tc.Title = info.Name
	}
	if info.Name == tools.UpdatePlanName {
		// The plan update that follows carries the plan; echoing it as the
		// call's input shows it twice in clients that render raw input.
		tc.RawInput = nil
	}
	c := &toolCall{t: t, tool: tool, info: info, tc: tc, shown: &shownEdits{},
		ev: ToolCallEvent{SessionID: s.id, ToolCallID: tc.ID, Tool: info, Input: input}}
	c.live = t.liveTerm(info, tc)
	t.emitTerm(Update{Type: ToolCallStarted, Tool: &c.tc}, c.live, "")
	return c
}

func (c *toolCall) Before(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	s := c.t.s
	if c.info.Group == tools.GroupRead {
		c.rs = c.t.rules()
	}
	in, err := s.beforeToolCall(ctx, c.t.view(), c.ev, c.rs)
	c.ev.Input = in
	return in, err
}

// Start: a call that may act on the world is in the log before it does
// (logged), as edits and commands are through the Host, so that a crash
// meanwhile replays it interrupted: an MCP or plugin tool acts without
// the Host.
func (c *toolCall) Start() {
	c.started.Do(func() {
		c.t.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: c.tc.ID, Status: ToolInProgress}})
		if turn.MayAsk(c.info.Group) {
			c.t.s.out.loggedIn(c.t.conv())
		}
	})
}

func (c *toolCall) Env() *tools.Env {
	return c.t.toolEnv(c.tc, c.info, c.Start, c.shown, c.rs, c.live)
}

func (c *toolCall) After(ctx context.Context, res tools.Result) tools.Result {
	s := c.t.s
	after := s.a.cfg.Pipeline.afterToolCall(ctx, c.ev, ToolResult{Output: res.Output, IsError: res.IsError})
	res.Output, res.IsError = guardResult(s.a.cfg.Redact, s.a.cfg.MaxResultBytes, after.Output), after.IsError
	return res
}

func (c *toolCall) Report(res tools.Result) { c.t.report(c.tc.ID, res, c.shown, c.live) }

func (c *toolCall) Fail(msg string, cause error) {
	s := c.t.s
	if cause != nil {
		s.a.log.Error("tool failed", "session", s.id, "tool", c.info.Name, "err", cause)
	}
	c.t.emitTerm(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: c.tc.ID, Status: ToolFailed, Content: failedContent(msg, c.shown, nil)}}, c.live, msg)
}

// report sends a finished call's tool_call_update (and its plan, if any).
func (t *turnRun) report(id string, res tools.Result, shown *shownEdits, live *liveTerm) {
	done := ToolCall{ID: id, Status: ToolCompleted, Locations: res.Locations}
	if res.IsError {
		done.Status = ToolFailed
	}
	for _, e := range res.Edits {
		done.Content = append(done.Content, DiffContent(e))
	}
	switch {
	case live.ran() != nil:
		done.Content = append(done.Content, TextContent(res.Output))
		t.emitTerm(Update{Type: ToolCallUpdated, Tool: &done}, live, "")
	case res.TerminalID != "":
		// The editor already shows the terminal (announced when it was
		// created), so the live update only ends the call; the log keeps
		// the output as text, because a replayed terminal id names nothing.
		logged := done
		logged.Content = append(slices.Clip(done.Content), TextContent(res.Output))
		t.emitLive(Update{Type: ToolCallUpdated, Tool: &done})
		t.logOnly(Update{Type: ToolCallUpdated, Tool: &logged})
	case res.Plan != nil:
		// The plan update below is the plan's one rendering.
		t.emit(Update{Type: ToolCallUpdated, Tool: &done})
	case res.IsError:
		// The error is the content, also beside edits made before it.
		done.Content = append(done.Content, failedContent(res.Output, shown, res.Edits)...)
		t.emit(Update{Type: ToolCallUpdated, Tool: &done})
	case len(res.Edits) == 0 && res.Output != "":
		done.Content = append(done.Content, TextContent(res.Output))
		t.emit(Update{Type: ToolCallUpdated, Tool: &done})
	default:
		t.emit(Update{Type: ToolCallUpdated, Tool: &done})
	}
	if res.Plan != nil {
		t.emit(Update{Type: PlanUpdated, Plan: res.Plan})
	}
}

// toolEnv builds the environment one call runs in. Its Host is wrapped so
// the edit seams see every edit; its Ask runs the ask seams.
func (t *turnRun) toolEnv(tc ToolCall, info tools.Info, start func(), shown *shownEdits, rs policy.Rules, live *liveTerm) *tools.Env {
	s := t.s
	// A terminal is announced once: its output reaches the client through
	// the terminal itself, so repeating the same content says nothing new.
	var termMu sync.Mutex
	var announced string
	ixs := s.index.list(t.view())
	var host tools.Host = commandWatch{Host: t.host(), s: s, t: t}
	if live != nil {
		host = liveHost{Host: host, lt: live}
	}
	return &tools.Env{
		Root:        s.root,
		Roots:       s.roots,
		CallID:      tc.ID,
		Host:        editHost{Host: host, pipe: &s.a.cfg.Pipeline, e: EditEvent{SessionID: s.id, ToolCallID: tc.ID}},
		Index:       ixs[0],
		RootIndexes: ixs[1:],
		Ask: func(ctx context.Context, a tools.Ask) error {
			if a.Edit != nil {
				shown.add(*a.Edit)
			}
			err := s.beforeAsk(ctx, t.askView(info.Group), AskEvent{SessionID: s.id, Call: tc, Tool: info, Ask: a})
			if err == nil {
				start()
			}
			return err
		},
		Progress: func(p tools.Progress) {
			start()
			u := ToolCall{ID: tc.ID}
			if p.TerminalID != "" {
				termMu.Lock()
				seen := announced == p.TerminalID
				announced = p.TerminalID
				termMu.Unlock()
				if seen {
					return
				}
				// Live only: the final update logs the output as text.
				u.Content = []ToolContent{{Type: "terminal", TerminalID: p.TerminalID}}
				t.emitLive(Update{Type: ToolCallUpdated, Tool: &u})
				return
			}
			u.Content = []ToolContent{TextContent(p.Output)}
			t.emit(Update{Type: ToolCallUpdated, Tool: &u})
		},
		Hidden: s.perms.readHidden(t.view().mode, info, rs),
	}
}
