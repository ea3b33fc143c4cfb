package policy

import (
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/tools"
)

// SourceSession is the Source of rules a session holds in memory only.
const SourceSession = "this session"

// from names r's source for a reason: " in .tandem/settings.json".
func (r Rule) from() string {
	if r.Source == "" {
		return ""
	}
	return " (" + r.Source + ")"
}

// Decision is what happens to a call. The zero value asks.
type Decision int

const (
	Ask Decision = iota
	Allow
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	}
	return "ask"
}

// Verdict is the policy's answer for one call.
type Verdict struct {
	Decision Decision
	// Reason says why, in a sentence. For Deny it is the refusal the model
	// and the user both read.
	Reason string
	// Protected marks an edit of a protected path: it asks in every mode
	// and no answer to it is remembered.
	Protected bool
	// AllowAlways and RejectAlways are what the "always" answers would
	// remember when Decision is Ask; nil when the answer cannot be scoped
	// to what is being approved, and then it is not offered.
	AllowAlways, RejectAlways *Grant
	// CannotAsk is the refusal to give, when Decision is Ask, if the front
	// door has no way to ask the user.
	CannotAsk string
	// Denier is the deny rule that refused the call, when one did.
	Denier *Rule
	// Approvable marks an Ask that an allow rule would have let through:
	// only the mode asks. A protected path, an ask rule or a run outside
	// the sandbox are not approvable; they need the user every time.
	Approvable bool
}

// Decide judges one call made in mode m under rules rs. In order: a deny
// rule refuses; read and plan calls go ahead; a protected path asks; an ask
// rule asks; the mode's own approval, then an allow rule, lets the call go
// ahead; anything else asks.
func Decide(m Mode, c Call, rs Rules) Verdict {
	t := newTarget(c)
	if r, ok := anyPart(rs.Deny, t); ok {
		why := fmt.Sprintf("The user chose to always reject %s in this session (rule %s)", describe([]Rule{r}), r)
		if r.Source != "" && r.Source != SourceSession {
			why = fmt.Sprintf("The rule %s in %s denies %s", r, r.Source, describe([]Rule{r}))
		}
		return Verdict{Decision: Deny, Denier: &r, Reason: fmt.Sprintf(
			"%s, so %s was refused. Nothing was changed. Ask the user how to proceed, or try a different approach.", why, t.shown())}
	}
	switch c.Group {
	case tools.GroupRead, tools.GroupPlan:
		return Verdict{Decision: Allow, Reason: fmt.Sprintf("%s tools never ask", c.Group)}
	}
	if v, ok := outsideSandbox(t); ok {
		return v
	}
	if t.protected {
		return Verdict{
			Decision:  Ask,
			Protected: true,
			Reason:    fmt.Sprintf("%s is a protected file: every change to it asks, in every mode", t.pathShown()),
			CannotAsk: fmt.Sprintf(
				"%s was refused: %s is a protected file, so every change to it needs the user's approval, and this editor cannot show permission prompts. Nothing was changed; tell the user what you meant to change so they can do it themselves.",
				capitalize(t.shown()), t.pathShown()),
		}
	}
	if r, ok := anyPart(rs.Ask, t); ok {
		return Verdict{Decision: Ask, Reason: fmt.Sprintf("the rule %s%s asks every time", r, r.from()),
			CannotAsk: cannotAsk(t, fmt.Sprintf("the rule %s%s asks for it every time", r, r.from()), false)}
	}
	if m.Approves(c.Group) && !reliesOnSandbox(m, t) {
		return Verdict{Decision: Allow, Reason: fmt.Sprintf("%s mode runs %s without asking", m, groupNoun(c.Group, c.Tool))}
	}
	if r, ok := covers(rs.Allow, t); ok {
		if r.Source == "" || r.Source == SourceSession {
			return Verdict{Decision: Allow, Reason: "the user allowed it earlier in this session"}
		}
		return Verdict{Decision: Allow, Reason: fmt.Sprintf("the rule %s%s allows it", r, r.from())}
	}
	return Verdict{
		Decision:     Ask,
		Approvable:   true,
		Reason:       askReason(m, t),
		AllowAlways:  proposeAllow(t, rs),
		RejectAlways: proposeReject(t),
		CannotAsk:    cannotAsk(t, fmt.Sprintf("in %s mode %s need the user's approval", m, groupNoun(c.Group, c.Tool)), true),
	}
}

// cannotAsk words the refusal for a call that needed an ask the front door
// cannot make, naming the modes that would run it unasked.
func cannotAsk(t target, why string, suggest bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s was refused: this editor cannot show permission prompts, and %s. Nothing was changed.", capitalize(t.shown()), why)
	if modes := approving(t.Group); suggest && len(modes) > 0 {
		names := make([]string, len(modes))
		for i, md := range modes {
			names[i] = string(md)
		}
		fmt.Fprintf(&b, " The user can switch to %s mode to let %s run without asking", strings.Join(names, " or "), groupNoun(t.Group, t.Tool))
		if t.kind == kindCommand {
			b.WriteString(", or run the command themselves")
		}
		b.WriteString(".")
	}
	return b.String()
}

// groupNoun names a group's calls in a sentence.
func groupNoun(g tools.Group, tool string) string {
	switch g {
	case tools.GroupEdit:
		return "edits"
	case tools.GroupExecute:
		return "commands"
	case tools.GroupMCP:
		return "MCP tools"
	case tools.GroupRead:
		return "reads"
	case tools.GroupPlan:
		return "plan updates"
	}
	return "calls of " + tool
}

func (t target) pathShown() string {
	if t.rel != "" {
		return t.rel
	}
	return t.Path
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Refusal is the error an asker returns for a refused call: it matches
// tools.ErrRejected, and its text is the reason the model reads.
func Refusal(reason string) error { return refusal(reason) }

type refusal string

func (r refusal) Error() string        { return string(r) }
func (r refusal) Is(target error) bool { return target == tools.ErrRejected }
