package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// toolSpecs lists the tools mode exposes, in catalog order.
func toolSpecs(ms modeSet, mode Mode, catalog []tools.Tool) []llm.ToolSpec {
	var specs []llm.ToolSpec
	for _, t := range catalog {
		info := t.Info()
		if !ms.exposes(mode, info.Group) {
			continue
		}
		specs = append(specs, llm.ToolSpec{Name: info.Name, Description: info.Description, InputSchema: info.Schema})
	}
	return specs
}

// lookup finds a tool among those offered in the latest request.
func (t *turnRun) lookup(name string) (tools.Tool, bool) {
	i := slices.IndexFunc(t.catalog, func(tl tools.Tool) bool { return tl.Info().Name == name })
	if i < 0 {
		return nil, false
	}
	return t.catalog[i], true
}

// mayAsk reports whether tools of group g can ask before they act (edits,
// commands, MCP and plugin tools); reading and planning never do.
func mayAsk(g tools.Group) bool { return g != tools.GroupRead && g != tools.GroupPlan }

// toolOutcome is one call's result and the paths it read or wrote.
type toolOutcome struct {
	part    llm.Part
	touched []string
}

// runTools executes one response's tool calls and returns their results in
// call order, with the paths they touched. Consecutive read-only calls run
// in parallel; anything that may change the workspace or ask the user runs
// alone, in order. Touched paths are collected once a group has joined.
func (t *turnRun) runTools(calls []llm.Part) ([]llm.Part, []string) {
	outs := make([]toolOutcome, len(calls))
	for i := 0; i < len(calls); {
		t.refreshView() // no call of the turn runs now
		j := i + 1
		if t.readOnly(calls[i]) {
			for j < len(calls) && t.readOnly(calls[j]) {
				j++
			}
		}
		if j-i == 1 {
			outs[i] = t.runTool(calls[i])
		} else {
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[k] = t.runTool(calls[k])
				}()
			}
			wg.Wait()
		}
		i = j
	}
	results := make([]llm.Part, len(outs))
	var touched []string
	for i, o := range outs {
		results[i] = o.part
		touched = append(touched, o.touched...)
	}
	return results, touched
}

func (t *turnRun) readOnly(call llm.Part) bool {
	tl, ok := t.lookup(call.ToolName)
	return ok && tl.Info().Group == tools.GroupRead
}

// runTool runs one call through its steps — announce, the before-tool seam,
// the tool itself, the after-tool seam, report — and returns the
// tool_result part for the model.
func (t *turnRun) runTool(call llm.Part) toolOutcome {
	s, ctx := t.s, t.ctx
	result := func(out string, isErr bool) toolOutcome {
		return toolOutcome{part: llm.Part{Type: llm.PartToolResult, ToolCallID: call.ToolCallID, ToolName: call.ToolName, Text: out, IsError: isErr}}
	}
	input := call.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	tool, ok := t.lookup(call.ToolName)
	// A call the model should not have made is answered with an error it
	// can act on; the turn goes on.
	refuse := func(kind tools.Kind, msg string) toolOutcome {
		t.emit(Update{Type: ToolCallStarted, Tool: &ToolCall{ID: t.callID(call.ToolCallID), Title: call.ToolName, Name: call.ToolName, Kind: kind, Status: ToolFailed, RawInput: input, Content: []ToolContent{TextContent(msg)}}})
		return result(msg, true)
	}
	if !ok {
		return refuse(tools.KindOther, fmt.Sprintf("There is no tool named %q. Use one of the tools you were given.", call.ToolName))
	}
	info := tool.Info()
	if !t.view().defs.modes.exposes(t.mode, info.Group) {
		return refuse(info.Kind, fmt.Sprintf("%s is not available in %s mode. Use one of the tools you were given.", info.Name, t.mode))
	}
	if !llm.IsObject(input) {
		// Malformed arguments are answered before Describe sees them.
		return refuse(info.Kind, fmt.Sprintf("The arguments for %s are not a valid JSON object (%.200s). Send a JSON object matching the tool's schema.", info.Name, input))
	}
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
	live := t.liveTerm(info, tc)
	t.emitTerm(Update{Type: ToolCallStarted, Tool: &tc}, live, "")

	shown := &shownEdits{}
	fail := func(msg string) toolOutcome {
		t.emitTerm(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: tc.ID, Status: ToolFailed, Content: failedContent(msg, shown, nil)}}, live, msg)
		return result(msg, true)
	}
	ev := ToolCallEvent{SessionID: s.id, ToolCallID: tc.ID, Tool: info, Input: input}
	// A read's deny rules are checked before it runs and again for each
	// file it lists or searches: the rules are fetched once for both.
	var rs policy.Rules
	if info.Group == tools.GroupRead {
		rs = t.rules()
	}
	input, err := s.beforeToolCall(ctx, t.view(), ev, rs)
	if err != nil {
		return fail(fmt.Sprintf("%s was not run: %v.", info.Name, err))
	}
	ev.Input = input
	if ctx.Err() != nil {
		return fail("Cancelled by the user before it ran.")
	}

	// A call is in progress once nothing stands between it and its effect:
	// at once for tools that never ask, otherwise when the ask is answered
	// yes (or the first progress arrives), so clients never show a call
	// awaiting approval as running.
	// A call that may act on the world is in the log before it does
	// (logged), as edits and commands are through the Host, so that a
	// crash meanwhile replays it interrupted: an MCP or plugin tool acts
	// without the Host.
	var started sync.Once
	start := func() {
		started.Do(func() {
			t.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: tc.ID, Status: ToolInProgress}})
			if mayAsk(info.Group) {
				s.out.loggedIn(t.conv())
			}
		})
	}
	if !mayAsk(info.Group) {
		start()
	}
	res, err := tool.Run(ctx, t.toolEnv(tc, info, start, shown, rs, live), input)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fail("Cancelled by the user.")
		case errors.Is(err, context.DeadlineExceeded):
			return fail(fmt.Sprintf("%s timed out.", info.Name))
		}
		s.a.log.Error("tool failed", "session", s.id, "tool", info.Name, "err", err)
		return fail(fmt.Sprintf("%s failed: %v", info.Name, err))
	}
	after := s.a.cfg.Pipeline.afterToolCall(ctx, ev, ToolResult{Output: res.Output, IsError: res.IsError})
	res.Output, res.IsError = guardResult(s.a.cfg.Redact, s.a.cfg.MaxResultBytes, after.Output), after.IsError
	t.report(tc.ID, res, shown, live)

	out := result(res.Output, res.IsError)
	for _, img := range res.Images {
		out.part.Rare().Images = append(out.part.Rare().Images, llm.Image(img.MediaType, img.Data))
	}
	if !res.IsError {
		out.touched = res.Touched
	}
	return out
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
