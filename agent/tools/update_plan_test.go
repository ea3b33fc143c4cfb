package tools

import (
	"strings"
	"testing"
)

func TestUpdatePlan(t *testing.T) {
	f := newFixture(t, nil)
	res := f.run(t, NewUpdatePlan(), map[string]any{"plan": []map[string]any{
		{"content": "Read the code", "status": "completed"},
		{"content": " Fix the bug ", "status": "in_progress", "priority": "high"},
		{"content": "Run tests", "status": "pending", "priority": "low"},
	}})
	if res.IsError || res.Output != "Plan updated: 3 steps (1 completed, 1 in progress, 1 pending)." {
		t.Fatalf("got %+v", res)
	}
	want := []PlanEntry{{"Read the code", "completed", "medium"}, {"Fix the bug", "in_progress", "high"}, {"Run tests", "pending", "low"}}
	if len(res.Plan) != len(want) {
		t.Fatalf("plan %+v", res.Plan)
	}
	for i := range want {
		if res.Plan[i] != want[i] {
			t.Errorf("step %d = %+v, want %+v", i, res.Plan[i], want[i])
		}
	}
	if f.asker.count() != 0 {
		t.Error("update_plan asked for permission")
	}
	one := f.run(t, NewUpdatePlan(), map[string]any{"plan": []map[string]any{{"content": "Only", "status": "pending"}}})
	if one.Output != "Plan updated: 1 step (0 completed, 0 in progress, 1 pending)." {
		t.Errorf("one step: %q", one.Output)
	}

	for _, c := range []struct {
		args any
		want string
	}{
		{map[string]any{}, `missing required field "plan" (array of object)`},
		{map[string]any{"plan": []map[string]any{{"content": "x", "status": "done"}}},
			`"plan[0].status": expected "pending" | "in_progress" | "completed", got "done"`},
		{map[string]any{"plan": []map[string]any{{"content": "x", "status": "pending", "priority": "urgent"}}},
			`"plan[0].priority": expected "high" | "medium" | "low", got "urgent"`},
		{map[string]any{"plan": []map[string]any{{"content": "", "status": "pending"}}}, "empty content"},
		{map[string]any{"plan": "not a list"}, `"plan": expected array of object, got string "not a list"`},
	} {
		res := f.run(t, NewUpdatePlan(), c.args)
		if !res.IsError || !strings.Contains(res.Output, c.want) {
			t.Errorf("%v: %+v, want error %q", c.args, res, c.want)
		}
	}
	// An empty plan clears it.
	if res := f.run(t, NewUpdatePlan(), map[string]any{"plan": []any{}}); res.IsError || res.Plan == nil || len(res.Plan) != 0 {
		t.Errorf("empty plan: %+v", res)
	}
}
