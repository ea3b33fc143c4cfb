package turn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
)

// Calls is the session's side of the tool stage.
type Calls interface {
	// Refuse tells the editor of a call that is not run, and why (msg,
	// also the model's answer).
	Refuse(call llm.Part, input json.RawMessage, kind tools.Kind, msg string)
	// Open announces a call about to run and returns the session's side
	// of it. Calls may be open concurrently (see runTools).
	Open(call llm.Part, tool tools.Tool, input json.RawMessage) Call
	// NextGroup is called before each group of calls starts (a run of
	// reads, or one other call), when none of the turn's calls runs: the
	// session may bring what its calls read up to date there.
	NextGroup()
}

// Call is one announced tool call as the session sees it.
type Call interface {
	// Before runs the before-tool-call seam: the input to run with, or
	// why the call is not run.
	Before(ctx context.Context, input json.RawMessage) (json.RawMessage, error)
	// Start marks the call in progress; it may be called more than once
	// (the tool's asks and progress call it too), and acts once. A call
	// that may act on the world is in the log before it does.
	Start()
	// Env is the environment the tool runs in.
	Env() *tools.Env
	// After runs the after-tool-call seam on res and bounds its output.
	After(ctx context.Context, res tools.Result) tools.Result
	// Report tells the editor the call ended with res.
	Report(res tools.Result)
	// Fail tells the editor the call failed with msg; cause, when set, is
	// an infrastructure error worth logging.
	Fail(msg string, cause error)
}

// MayAsk reports whether tools of group g can ask before they act (edits,
// commands, MCP and plugin tools); reading and planning never do.
func MayAsk(g tools.Group) bool { return g != tools.GroupRead && g != tools.GroupPlan }

// outcome is one call's result and the paths it read or wrote.
type outcome struct {
	part    llm.Part
	touched []string
}

// runTools executes one response's tool calls and returns their results in
// call order, with the paths they touched. Consecutive read-only calls run
// concurrently; anything that may change the workspace or ask the user
// runs alone, in order. Touched paths are collected once a group has
// joined.
func (r *run) runTools(calls []llm.Part) ([]llm.Part, []string) {
	outs := make([]outcome, len(calls))
	for i := 0; i < len(calls); {
		r.s.NextGroup()
		j := i + 1
		if r.readOnly(calls[i]) {
			for j < len(calls) && r.readOnly(calls[j]) {
				j++
			}
		}
		if j-i == 1 {
			outs[i] = r.runTool(calls[i])
		} else {
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[k] = r.runTool(calls[k])
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

// lookup finds a tool among those the latest request's snapshot knew.
func (r *run) lookup(name string) (tools.Tool, bool) {
	i := slices.IndexFunc(r.set.Tools, func(tl tools.Tool) bool { return tl.Info().Name == name })
	if i < 0 {
		return nil, false
	}
	return r.set.Tools[i], true
}

func (r *run) readOnly(call llm.Part) bool {
	tl, ok := r.lookup(call.ToolName)
	return ok && tl.Info().Group == tools.GroupRead
}

// runTool runs one call through its steps — check, announce, the
// before-tool seam, the tool itself, the after-tool seam, report — and
// returns the tool_result part for the model.
func (r *run) runTool(call llm.Part) outcome {
	s, ctx := r.s, r.ctx
	result := func(out string, isErr bool) outcome {
		return outcome{part: llm.Part{Type: llm.PartToolResult, ToolCallID: call.ToolCallID, ToolName: call.ToolName, Text: out, IsError: isErr}}
	}
	input := call.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	// A call the model should not have made is answered with an error it
	// can act on; the turn goes on.
	refuse := func(kind tools.Kind, msg string) outcome {
		s.Refuse(call, input, kind, msg)
		return result(msg, true)
	}
	tool, ok := r.lookup(call.ToolName)
	if !ok {
		return refuse(tools.KindOther, fmt.Sprintf("There is no tool named %q. Use one of the tools you were given.", call.ToolName))
	}
	info := tool.Info()
	if !r.set.Exposes(info.Group) {
		return refuse(info.Kind, fmt.Sprintf("%s is not available in %s mode. Use one of the tools you were given.", info.Name, r.set.Mode))
	}
	if !llm.IsObject(input) {
		// Malformed arguments are answered before Describe sees them.
		return refuse(info.Kind, fmt.Sprintf("The arguments for %s are not a valid JSON object (%.200s). Send a JSON object matching the tool's schema.", info.Name, input))
	}

	c := s.Open(call, tool, input)
	fail := func(msg string, cause error) outcome {
		c.Fail(msg, cause)
		return result(msg, true)
	}
	input, err := c.Before(ctx, input)
	if err != nil {
		return fail(fmt.Sprintf("%s was not run: %v.", info.Name, err), nil)
	}
	if ctx.Err() != nil {
		return fail("Cancelled by the user before it ran.", nil)
	}
	// A call is in progress once nothing stands between it and its effect:
	// at once for tools that never ask, otherwise when the ask is answered
	// yes (or the first progress arrives), so clients never show a call
	// awaiting approval as running.
	if !MayAsk(info.Group) {
		c.Start()
	}
	res, err := tool.Run(ctx, c.Env(), input)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fail("Cancelled by the user.", nil)
		case errors.Is(err, context.DeadlineExceeded):
			return fail(fmt.Sprintf("%s timed out.", info.Name), nil)
		}
		return fail(fmt.Sprintf("%s failed: %v", info.Name, err), err)
	}
	res = c.After(ctx, res)
	c.Report(res)

	out := result(res.Output, res.IsError)
	for _, img := range res.Images {
		out.part.Rare().Images = append(out.part.Rare().Images, llm.Image(img.MediaType, img.Data))
	}
	if !res.IsError {
		out.touched = res.Touched
	}
	return out
}
