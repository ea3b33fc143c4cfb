package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
)

// UpdatePlanName is the model-facing name of the plan tool.
const UpdatePlanName = "update_plan"

//go:embed update_plan.md
var updatePlanDescription string

type updatePlanArgs struct {
	Plan []PlanEntry `json:"plan" jsonschema:"The complete plan, replacing the previous one."`
}

// NewUpdatePlan returns the update_plan tool.
func NewUpdatePlan() Tool {
	return New(Spec[updatePlanArgs]{Name: UpdatePlanName, Group: GroupPlan, Kind: KindThink,
		Doc: updatePlanDescription, Run: runUpdatePlan,
		Describe: func(string, updatePlanArgs) Preview { return Preview{Title: "Update plan"} },
	})
}

// runUpdatePlan never asks: a plan changes nothing outside the
// conversation. The schema has already checked status and priority.
func runUpdatePlan(_ context.Context, _ *Env, p updatePlanArgs) (Result, error) {
	counts := map[string]int{}
	for i, e := range p.Plan {
		e.Content = strings.TrimSpace(e.Content)
		if e.Content == "" {
			return failure("plan step %d has empty content", i+1), nil
		}
		if e.Priority == "" {
			// ACP requires a priority on every entry.
			e.Priority = "medium"
		}
		p.Plan[i] = e
		counts[e.Status]++
	}
	steps := "steps"
	if len(p.Plan) == 1 {
		steps = "step"
	}
	return Result{
		Output: fmt.Sprintf("Plan updated: %d %s (%d completed, %d in progress, %d pending).",
			len(p.Plan), steps, counts["completed"], counts["in_progress"], counts["pending"]),
		Plan: p.Plan,
	}, nil
}
