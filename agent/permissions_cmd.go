package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/settings"
)

// permissionsCommand is /permissions: with no argument it lists the rules
// in force and where each comes from; "remove RULE" drops one from the
// project's personal file or the session.
func permissionsCommand() slash {
	return slash{
		description: "Show the permission rules in force and where each comes from; /permissions remove RULE drops one",
		hint:        "remove RULE",
		run: func(t *turnRun, arg string) (StopReason, error) {
			s := t.s
			if rest, ok := strings.CutPrefix(arg, "remove"); ok && (rest == "" || rest[0] == ' ') {
				s.say(s.perms.removeRule(t.ctx, strings.TrimSpace(rest)))
				return StopEndTurn, nil
			}
			if arg != "" {
				s.say("Use /permissions to list the rules, or /permissions remove RULE to drop one.")
				return StopEndTurn, nil
			}
			s.say(s.perms.describeRules(t.ctx))
			return StopEndTurn, nil
		},
	}
}

// describeRules lists every rule, in force or waiting for consent, by
// list (deny, ask, allow: the order they win in), with its source.
func (p *permissions) describeRules(ctx context.Context) string {
	s := p.s
	p.refreshRules(ctx, false)
	var set settings.Set
	var grants policy.Rules
	s.read(func() { set, grants = p.files.set, p.grants.Merge() })
	local := s.display(settings.LocalFile(s.root))
	var b strings.Builder
	fmt.Fprintf(&b, "Mode: %s. Permission rules (deny beats ask beats allow; protected files ask in every mode):\n", s.Mode())
	n := 0
	for _, d := range []policy.Decision{policy.Deny, policy.Ask, policy.Allow} {
		var lines []string
		for _, e := range set.Entries {
			if e.List != d {
				continue
			}
			scope := e.Kind.Scope()
			if !e.Active {
				scope += "; not in force: the repository wrote it and you have not accepted it"
			}
			lines = append(lines, fmt.Sprintf("  %s — %s (%s)", e.Text, e.Source, scope))
		}
		for _, r := range grants.List(d) {
			lines = append(lines, fmt.Sprintf("  %s — %s (only here: saving it to %s failed)", r, policy.SourceSession, local))
		}
		if len(lines) == 0 {
			continue
		}
		n += len(lines)
		fmt.Fprintf(&b, "\n%s:\n%s\n", d, strings.Join(lines, "\n"))
	}
	if n == 0 {
		b.WriteString("\nNo rules: the mode alone decides what asks.\n")
	}
	for _, pr := range set.Problems {
		fmt.Fprintf(&b, "\nSkipped: %s\n", pr)
	}
	user := "$TANDEM_HOME/config.json"
	if s.a.cfg.Home != "" {
		user = s.display(settings.UserFile(s.a.cfg.Home))
	}
	fmt.Fprintf(&b, "\nRules live in %s (\"permissions\"), .tandem/settings.json and %s. An \"always\" answer to a permission prompt is saved to %s and holds in every session of this project until removed. /permissions remove RULE drops one from %s or this session.", user, local, local, local)
	return b.String()
}

// removeRule drops text from settings.local.json and the session's grants,
// and says where it went from, or why it could not.
func (p *permissions) removeRule(ctx context.Context, text string) string {
	s := p.s
	if text == "" {
		return "Name the rule to remove, as /permissions lists it: /permissions remove run_command(go test:*)"
	}
	var where []string
	if rules, err := policy.ParseRule(text); err == nil {
		dropped := false
		s.change(func() {
			for _, r := range rules {
				r.Source = policy.SourceSession
				for _, d := range []policy.Decision{policy.Allow, policy.Ask, policy.Deny} {
					dropped = p.grants.Remove(d, r) || dropped
				}
			}
			p.publishRules()
		})
		if dropped {
			where = append(where, policy.SourceSession)
		}
	}
	removed, err := settings.RemoveLocal(s.root, text)
	if err != nil {
		return fmt.Sprintf("%s could not be removed from %s: %v", text, s.display(settings.LocalFile(s.root)), err)
	}
	if removed {
		where = append([]string{s.display(settings.LocalFile(s.root))}, where...)
	}
	p.refreshRules(ctx, true)
	if len(where) > 0 {
		return fmt.Sprintf("Removed %s from %s.", text, strings.Join(where, " and "))
	}
	var others []string
	s.read(func() {
		for _, e := range p.files.set.Entries {
			if e.Text == text && !slices.Contains(others, e.Source) {
				others = append(others, e.Source)
			}
		}
	})
	if len(others) > 0 {
		return fmt.Sprintf("%s is in %s; tandem only removes rules from .tandem/settings.local.json and this session, so edit that file to change it.", text, strings.Join(others, " and "))
	}
	return fmt.Sprintf("No rule %s is in force; /permissions lists them as written.", text)
}
