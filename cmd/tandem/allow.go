package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// ruleSpec is one --allow rule, as written and as the policy reads it (a
// Claude Code name such as Edit may stand for several tools).
type ruleSpec struct {
	text  string
	rules []policy.Rule
}

// parseRules reads --allow values with the policy's own parser, so they
// take exactly the syntax of settings files: run_command(go test:*),
// edit_file(src/**), mcp__srv__tool, Bash(npm run lint).
func parseRules(texts []string) ([]ruleSpec, error) {
	var out []ruleSpec
	for _, t := range texts {
		rules, err := policy.ParseRule(t)
		if err != nil {
			return nil, fmt.Errorf("--allow: %w (a rule reads Tool or Tool(specifier))", err)
		}
		out = append(out, ruleSpec{text: strings.TrimSpace(t), rules: rules})
	}
	return out, nil
}

// preapprove runs at the pipeline's before-ask seam: when an --allow rule
// covers the call, the host's answer to the question that may follow is
// yes. The policy itself judges the match (policy.Decide with the rules as
// allow rules), so a protected path still asks and a deny still wins.
func (h *cliHost) preapprove(ctx context.Context, e agent.AskEvent) (agent.AskAnswer, error) {
	if len(h.allow) == 0 {
		return agent.AskAsUsual, nil
	}
	h.mu.Lock()
	root, protected := h.Root, h.isProtected
	h.mu.Unlock()
	call := policy.Call{Tool: e.Tool.Name, Group: e.Tool.Group, Root: root, Path: e.Ask.Path, Command: e.Ask.Command}
	if call.Path != "" && protected != nil {
		call.Protected = protected(call.Path)
	}
	for _, r := range h.allow {
		v := policy.Decide(policy.ModeCode, call, policy.Rules{Allow: r.rules})
		if v.Decision == policy.Allow && e.Tool.Group != tools.GroupRead && e.Tool.Group != tools.GroupPlan {
			h.mu.Lock()
			if h.preAsked == nil {
				h.preAsked = map[string]string{}
			}
			h.preAsked[e.Call.ID] = r.text
			h.mu.Unlock()
			return agent.AskAsUsual, nil
		}
	}
	return agent.AskAsUsual, nil
}
