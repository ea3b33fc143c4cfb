package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
)

// toolSpecs lists the tools the current mode exposes, in registry order.
func (s *Session) toolSpecs() []llm.ToolSpec {
	mode := s.Mode()
	var specs []llm.ToolSpec
	for _, t := range s.tools.List() {
		info := t.Info()
		if !mode.exposes(info.Group) {
			continue
		}
		specs = append(specs, llm.ToolSpec{Name: info.Name, Description: info.Description, InputSchema: info.Schema})
	}
	return specs
}

// runTools executes one response's tool calls and returns their results in
// call order. Consecutive read-only calls run in parallel; anything that may
// change the workspace or ask the user runs alone, in order.
func (s *Session) runTools(ctx context.Context, calls []llm.Part) []llm.Part {
	results := make([]llm.Part, len(calls))
	for i := 0; i < len(calls); {
		j := i + 1
		if s.readOnly(calls[i]) {
			for j < len(calls) && s.readOnly(calls[j]) {
				j++
			}
		}
		if j-i == 1 {
			results[i] = s.runTool(ctx, calls[i])
		} else {
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					results[k] = s.runTool(ctx, calls[k])
				}()
			}
			wg.Wait()
		}
		i = j
	}
	return results
}

func (s *Session) readOnly(call llm.Part) bool {
	t, ok := s.tools.Get(call.ToolName)
	return ok && t.Info().Group == tools.GroupRead
}

// runTool runs one call, publishing its tool_call updates, and returns the
// tool_result part for the model.
func (s *Session) runTool(ctx context.Context, call llm.Part) llm.Part {
	result := func(out string, isErr bool) llm.Part {
		return llm.Part{Type: llm.PartToolResult, ToolCallID: call.ToolCallID, ToolName: call.ToolName, Text: out, IsError: isErr}
	}
	input := call.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	t, ok := s.tools.Get(call.ToolName)
	if !ok {
		s.emit(Update{Type: ToolCallStarted, Tool: &ToolCall{ID: call.ToolCallID, Title: call.ToolName, Kind: tools.KindOther, Status: ToolFailed, RawInput: input}})
		return result(fmt.Sprintf("There is no tool named %q. Use one of the tools you were given.", call.ToolName), true)
	}
	info := t.Info()
	pv := t.Describe(s.root, input)
	tc := ToolCall{ID: call.ToolCallID, Title: pv.Title, Kind: info.Kind, Status: ToolPending, Locations: pv.Locations, RawInput: input}
	if tc.Title == "" {
		tc.Title = info.Name
	}
	s.emit(Update{Type: ToolCallStarted, Tool: &tc})

	fail := func(msg string) llm.Part {
		s.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: tc.ID, Status: ToolFailed, Content: []ToolContent{TextContent(msg)}}})
		return result(msg, true)
	}
	if mode := s.Mode(); !mode.exposes(info.Group) {
		return fail(fmt.Sprintf("The tool %s is not available in %s mode.", info.Name, mode))
	}
	if !json.Valid(input) {
		return fail(fmt.Sprintf("The arguments for %s are not valid JSON. Send a JSON object matching the tool's schema.", info.Name))
	}
	if ctx.Err() != nil {
		return fail("Cancelled by the user before it ran.")
	}

	s.emit(Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: tc.ID, Status: ToolInProgress}})
	env := s.toolEnv(tc, info)
	res, err := t.Run(ctx, env, input)
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

	done := ToolCall{ID: tc.ID, Status: ToolCompleted, Locations: res.Locations}
	if res.IsError {
		done.Status = ToolFailed
	}
	for _, e := range res.Edits {
		done.Content = append(done.Content, DiffContent(e))
	}
	switch {
	case res.TerminalID != "":
		done.Content = append(done.Content, ToolContent{Type: "terminal", TerminalID: res.TerminalID})
	case len(res.Edits) == 0 && res.Output != "":
		done.Content = append(done.Content, TextContent(res.Output))
	}
	s.emit(Update{Type: ToolCallUpdated, Tool: &done})
	if res.Plan != nil {
		s.emit(Update{Type: PlanUpdated, Plan: res.Plan})
	}
	if !res.IsError {
		s.noteTouched(res.Touched)
	}
	part := result(res.Output, res.IsError)
	for _, img := range res.Images {
		part.Images = append(part.Images, llm.Part{Type: llm.PartImage, MediaType: img.MediaType, Data: img.Data})
	}
	return part
}

// toolEnv builds the environment one call runs in.
func (s *Session) toolEnv(tc ToolCall, info tools.Info) *tools.Env {
	return &tools.Env{
		Root:  s.root,
		Host:  s.host,
		Index: s.index(),
		Ask: func(ctx context.Context, a tools.Ask) error {
			return s.ask(ctx, tc, info, a)
		},
		Progress: func(p tools.Progress) {
			u := ToolCall{ID: tc.ID}
			if p.TerminalID != "" {
				u.Content = []ToolContent{{Type: "terminal", TerminalID: p.TerminalID}}
			} else {
				u.Content = []ToolContent{TextContent(p.Output)}
			}
			s.emit(Update{Type: ToolCallUpdated, Tool: &u})
		},
	}
}
