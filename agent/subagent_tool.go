package agent

import (
	"context"
	"fmt"
	"strings"

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
// the one offered before, in place); on the actor, or before it runs.
func (p *customization) addTaskTool() {
	s := p.s
	list := make([]tools.TaskAgent, len(p.defs.agents))
	for i, d := range p.defs.agents {
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
	def, ok := s.custom.agentNamed(name)
	if !ok {
		return tools.Result{IsError: true, Output: fmt.Sprintf("There is no agent named %q. Use one of: %s.", name, strings.Join(s.custom.agentNames(), ", "))}, nil
	}
	select {
	case s.tasks <- struct{}{}:
		defer func() { <-s.tasks }()
	case <-ctx.Done():
		return tools.Result{}, ctx.Err()
	}
	report, err := s.delegate(ctx, def, env.CallID, args.Prompt)
	switch {
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case err != nil:
		return tools.Result{IsError: true, Output: fmt.Sprintf("The %s agent stopped before it finished: %v", def.Name, err)}, nil
	}
	return tools.Result{Output: report}, nil
}

func (p *customization) agentNamed(name string) (custom.Subagent, bool) {
	for _, d := range p.current().agents {
		if d.Name == name {
			return d, true
		}
	}
	return custom.Subagent{}, false
}

func (p *customization) agentNames() []string {
	agents := p.current().agents
	names := make([]string, len(agents))
	for i, d := range agents {
		names[i] = d.Name
	}
	return names
}
