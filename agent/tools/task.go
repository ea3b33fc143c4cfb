package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
)

// TaskName is the model-facing name of the subagent tool.
const TaskName = "task"

//go:embed task.md
var taskDescription string

// TaskArgs are the task tool's arguments.
type TaskArgs struct {
	Description string `json:"description" jsonschema:"A short title for the job, three to eight words, shown to the user."`
	Prompt      string `json:"prompt" jsonschema:"The whole job for the subagent: what to find or do and what to report. It sees nothing of this conversation."`
	Agent       string `json:"agent,omitempty" jsonschema:"The agent to run the job, by name, from the list in this tool's description. Default: explore."`
}

// TaskAgent is an agent the model may name, as the task tool lists it.
type TaskAgent struct {
	Name        string
	Description string
}

// NewTask returns the task tool offering agents; run starts the child
// session (the agent package owns that). The description lists the agents,
// so it is fixed for as long as the list is: build the tool once per
// session.
func NewTask(agents []TaskAgent, run func(ctx context.Context, env *Env, args TaskArgs) (Result, error)) Tool {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(taskDescription))
	b.WriteString("\n\nAgents:")
	for _, a := range agents {
		fmt.Fprintf(&b, "\n- %s: %s", a.Name, oneLine(a.Description))
	}
	return New(Spec[TaskArgs]{Name: TaskName, Group: GroupRead, Kind: KindOther, Doc: b.String(),
		Run: func(ctx context.Context, env *Env, args TaskArgs) (Result, error) {
			if strings.TrimSpace(args.Prompt) == "" {
				return failure("prompt is empty: describe the job for the subagent"), nil
			}
			return run(ctx, env, args)
		},
		Describe: func(_ string, args TaskArgs) Preview {
			agent := args.Agent
			if agent == "" {
				agent = "explore"
			}
			title := "Task (" + agent + ")"
			if d := oneLine(args.Description); d != "" {
				title += ": " + d
			}
			return Preview{Title: title}
		},
	})
}

// oneLine folds whitespace, so a multi-line description stays one list item.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
