package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// UpdatePlanName is the model-facing name of the plan tool.
const UpdatePlanName = "update_plan"

//go:embed update_plan.md
var updatePlanDescription string

const updatePlanSchema = `{
  "type": "object",
  "properties": {
    "plan": {
      "type": "array",
      "description": "The complete plan, replacing the previous one.",
      "items": {
        "type": "object",
        "properties": {
          "content": {"type": "string", "description": "What the step does, in a few words."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
          "priority": {"type": "string", "enum": ["high", "medium", "low"]}
        },
        "required": ["content", "status"],
        "additionalProperties": false
      }
    }
  },
  "required": ["plan"],
  "additionalProperties": false
}`

type updatePlanParams struct {
	Plan []PlanEntry `json:"plan"`
}

type updatePlanTool struct{}

// NewUpdatePlan returns the update_plan tool.
func NewUpdatePlan() Tool { return updatePlanTool{} }

func (updatePlanTool) Info() Info {
	return Info{Name: UpdatePlanName, Group: GroupPlan, Kind: KindThink,
		Description: updatePlanDescription, Schema: json.RawMessage(updatePlanSchema)}
}

func (updatePlanTool) Describe(string, json.RawMessage) Preview {
	return Preview{Title: "Update plan"}
}

// Run never asks: a plan changes nothing outside the conversation.
func (updatePlanTool) Run(_ context.Context, _ *Env, input json.RawMessage) (Result, error) {
	var p updatePlanParams
	if err := decodeArgs(UpdatePlanName, input, &p); err != nil {
		return failureErr(err), nil
	}
	if p.Plan == nil {
		return failure("plan is missing; send the complete list of steps"), nil
	}
	counts := map[string]int{}
	for i, e := range p.Plan {
		e.Content = strings.TrimSpace(e.Content)
		if e.Content == "" {
			return failure("plan step %d has empty content", i+1), nil
		}
		switch e.Status {
		case "pending", "in_progress", "completed":
		default:
			return failure("plan step %d (%q) has status %q; use pending, in_progress or completed", i+1, e.Content, e.Status), nil
		}
		switch e.Priority {
		case "", "high", "medium", "low":
		default:
			return failure("plan step %d (%q) has priority %q; use high, medium or low, or leave it out", i+1, e.Content, e.Priority), nil
		}
		p.Plan[i] = e
		counts[e.Status]++
	}
	return Result{
		Output: fmt.Sprintf("Plan updated: %d steps (%d completed, %d in progress, %d pending).",
			len(p.Plan), counts["completed"], counts["in_progress"], counts["pending"]),
		Plan: p.Plan,
	}, nil
}
