package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/tools"
)

// SubagentConfig is config.json's "subagents" object.
type SubagentConfig struct {
	// MaxParallel bounds the subagents one session runs at once; further
	// task calls wait for a free slot. 0: DefaultMaxParallel.
	MaxParallel int
}

// DefaultMaxParallel is how many subagents a session runs at once unless
// configured otherwise.
const DefaultMaxParallel = 3

// defaultAgent is the agent a task call that names none runs.
const defaultAgent = "explore"

func (a *Agent) maxParallelTasks() int {
	if n := a.cfg.Subagents.MaxParallel; n > 0 {
		return n
	}
	return DefaultMaxParallel
}

// addTaskTool offers the task tool with the session's agents (replacing
// the one offered before, in place).
func (s *Session) addTaskTool() {
	list := make([]tools.TaskAgent, len(s.defs().agents))
	for i, d := range s.defs().agents {
		list[i] = tools.TaskAgent{Name: d.Name, Description: d.Description}
	}
	s.st.catalog.Add(tools.NewTask(list, s.runTask))
}

// runTask is the task tool: it waits for a slot, runs the named agent as a
// child turn and returns its report. A child that fails tells the model
// why; cancellation ends the call.
func (s *Session) runTask(ctx context.Context, env *tools.Env, args tools.TaskArgs) (tools.Result, error) {
	name := args.Agent
	if name == "" {
		name = defaultAgent
	}
	def, ok := s.agentNamed(name)
	if !ok {
		return tools.Result{IsError: true, Output: fmt.Sprintf("There is no agent named %q. Use one of: %s.", name, strings.Join(s.agentNames(), ", "))}, nil
	}
	select {
	case s.tasks <- struct{}{}:
		defer func() { <-s.tasks }()
	case <-ctx.Done():
		return tools.Result{}, ctx.Err()
	}
	tr := &transcript{progress: env.Progress}
	report, err := s.delegate(ctx, def, env.CallID, args.Prompt, tr.add)
	switch {
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case err != nil:
		return tools.Result{IsError: true, Output: fmt.Sprintf("The %s agent stopped before it finished: %v", def.Name, err)}, nil
	}
	return tools.Result{Output: report}, nil
}

func (s *Session) agentNamed(name string) (custom.Subagent, bool) {
	for _, d := range s.defs().agents {
		if d.Name == name {
			return d, true
		}
	}
	return custom.Subagent{}, false
}

func (s *Session) agentNames() []string {
	names := make([]string, len(s.defs().agents))
	for i, d := range s.defs().agents {
		names[i] = d.Name
	}
	return names
}

// transcript folds a child's tool calls into its parent call's content:
// one line per call with its status, sent whole on every change (a
// tool_call_update's content replaces what was shown). The child's message
// text is left out; its last message comes back as the tool's result.
type transcript struct {
	progress func(tools.Progress)

	mu    sync.Mutex // guards calls: a child runs read-only calls in parallel
	calls []childCall
}

type childCall struct {
	id, title string
	status    ToolStatus
}

func (tr *transcript) add(u Update) {
	u = u.ToolCallForm() // a child's compaction is listed as one of its calls
	if tr.progress == nil || u.Tool == nil || (u.Type != ToolCallStarted && u.Type != ToolCallUpdated) {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	i := -1
	for k, c := range tr.calls {
		if c.id == u.Tool.ID {
			i = k
		}
	}
	if i < 0 {
		tr.calls = append(tr.calls, childCall{id: u.Tool.ID, title: u.Tool.Title, status: ToolPending})
		i = len(tr.calls) - 1
	}
	if u.Tool.Status != "" {
		tr.calls[i].status = u.Tool.Status
	}
	if u.Tool.Title != "" {
		tr.calls[i].title = u.Tool.Title
	}
	var b strings.Builder
	for _, c := range tr.calls {
		fmt.Fprintf(&b, "%s: %s\n", c.status, c.title)
	}
	// Under the lock, so the editor sees the states in the order they happened.
	tr.progress(tools.Progress{Output: b.String()})
}
