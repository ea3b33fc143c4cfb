package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// ruleSpec is one --allow rule, as written and as the policy reads it.
type ruleSpec struct {
	text string
	rule policy.Rule
}

// parseRules reads --allow values in the policy's Tool(specifier) syntax:
// run_command(go test:*), edit_file(src/**), mcp__srv__tool. The parsing is
// kept here and small so it can give way to agent/policy's own parser.
func parseRules(texts []string) ([]ruleSpec, error) {
	var out []ruleSpec
	for _, t := range texts {
		t = strings.TrimSpace(t)
		name, spec, paren := strings.Cut(t, "(")
		if paren {
			var ok bool
			if spec, ok = strings.CutSuffix(spec, ")"); !ok || strings.TrimSpace(spec) == "" {
				return nil, fmt.Errorf("--allow %q: a rule reads Tool or Tool(specifier), as in run_command(go test:*)", t)
			}
		}
		name = strings.TrimSpace(name)
		if name == "" || strings.ContainsAny(name, " ()") {
			return nil, fmt.Errorf("--allow %q: a rule starts with a tool name, as in edit_file(src/**)", t)
		}
		out = append(out, ruleSpec{text: t, rule: policy.Rule{Tool: name, Specifier: strings.TrimSpace(spec)}})
	}
	return out, nil
}

// preapprove runs at the pipeline's before-ask seam: when an --allow rule
// covers the call, the host's answer to the question that may follow is
// yes. The policy itself judges the match (policy.Decide with the rules as
// allow rules), so a protected path still asks and a deny still wins.
func (h *cliHost) preapprove(ctx context.Context, e agent.AskEvent) error {
	if len(h.allow) == 0 {
		return nil
	}
	h.mu.Lock()
	root, protected := h.Root, h.isProtected
	h.mu.Unlock()
	call := policy.Call{Tool: e.Tool.Name, Group: e.Tool.Group, Root: root, Path: e.Ask.Path, Command: e.Ask.Command}
	if call.Path != "" && protected != nil {
		call.Protected = protected(call.Path)
	}
	for _, r := range h.allow {
		v := policy.Decide(policy.ModeCode, call, policy.Rules{Allow: []policy.Rule{r.rule}})
		if v.Decision == policy.Allow && e.Tool.Group != tools.GroupRead && e.Tool.Group != tools.GroupPlan {
			h.mu.Lock()
			if h.preAsked == nil {
				h.preAsked = map[string]string{}
			}
			h.preAsked[e.Call.ID] = r.text
			h.mu.Unlock()
			return nil
		}
	}
	return nil
}
