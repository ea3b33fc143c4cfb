package agent

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// judgeAsk decides whether a tool call may go ahead. agent/policy judges
// it against the mode and the rules in force (see rules); only when the
// verdict is "ask" does the host put the question to the user, and an
// "always" answer is remembered as the rule the option named. A host that
// cannot ask (ErrCannotAsk) gets the policy's refusal instead.
//
// inTurn is a call made in a turn (the session shows it awaits permission,
// and a withdrawn question cancels the turn) rather than outside one (a
// plugin's call, which must not touch the turn's state). approved is a
// BeforeAsk contributor's yes, which stands in for the user's only where
// an allow rule could have.
//
// now is the session's settings as the caller found them: a turn's view,
// or the actor's (viewNow) for a call outside a turn.
func (p *permissions) judgeAsk(ctx context.Context, now turnView, tc ToolCall, info tools.Info, a tools.Ask, inTurn, approved bool) error {
	s := p.s
	root := s.RootOf(a.Path)
	call := policy.Call{Tool: info.Name, Group: info.Group, Root: root, Path: a.Path, Command: a.Command,
		Protected:   a.Path != "" && (tools.Protected(root, a.Path, s.a.instructionsConfig().FileNames()) || s.custom.inTandemHome(a.Path)),
		Unsandboxed: a.Unsandboxed, Unconfined: p.unconfined(now.toggles)}
	v := judgeWith(policy.Mode(now.mode), call, p.rulesIn(context.Background(), &now))
	switch v.Decision {
	case policy.Allow:
		return nil
	case policy.Deny:
		return policy.Refusal(v.Reason)
	}
	if approved && v.Approvable {
		s.a.log.Info("permission given by a before-ask contributor", "session", s.id, "tool", info.Name)
		return nil
	}

	if inTurn {
		s.setLifecycle(AwaitingPermission)
	}
	d, err := s.host.RequestPermission(ctx, s.guardRequest(sandboxTitle(now.mode, permissionRequest(tc, a, v), call)))
	if inTurn {
		s.setLifecycle(Running)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, ErrCannotAsk):
		return policy.Refusal(v.CannotAsk)
	case err != nil:
		return fmt.Errorf("asking for permission: %w", err)
	case d.Cancelled:
		// The editor withdrew the question: the user cancelled the turn.
		if inTurn {
			// The actor ends the turn at once (it never waits on one);
			// nothing of the turn goes on before it has.
			s.Cancel()
			<-ctx.Done()
		}
		return context.Canceled
	}
	switch d.Kind {
	case AllowOnce:
		return nil
	case AllowAlways:
		if v.AllowAlways != nil {
			p.remember(ctx, policy.Allow, v.AllowAlways.Rules)
			p.denyStillWins(now.mode, call, v.AllowAlways)
		}
		return nil
	case RejectAlways:
		if v.RejectAlways != nil {
			p.remember(ctx, policy.Deny, v.RejectAlways.Rules)
		}
	}
	return tools.ErrRejected
}

// permissionRequest is the question for one call: the tool call with its
// diff or command, and the options the verdict allows, each "always" named
// after exactly what it remembers.
func permissionRequest(tc ToolCall, a tools.Ask, v policy.Verdict) PermissionRequest {
	req := PermissionRequest{ToolCall: tc}
	req.ToolCall.Status = ToolPending
	if a.Title != "" {
		req.ToolCall.Title = a.Title
	}
	if a.Kind != "" {
		req.ToolCall.Kind = a.Kind
	}
	switch {
	case a.Edit != nil:
		req.ToolCall.Content = []ToolContent{DiffContent(*a.Edit)}
		req.ToolCall.Locations = []tools.Location{{Path: a.Edit.Path}}
	case a.Command != "":
		req.ToolCall.Content = []ToolContent{TextContent("$ " + a.Command)}
	}
	if v.Protected {
		req.ToolCall.Title += " (protected file)"
	}
	if n := tc.Nest; n != nil {
		// The user must know which agent asks: the editor may show the
		// question away from the task call's card.
		req.ToolCall.Title = n.Agent + " agent: " + req.ToolCall.Title
		req.ToolCall.Meta, _ = encodeMeta(n, nil) // encodes two strings: cannot fail
	}
	req.Options = []PermissionOption{{ID: string(AllowOnce), Name: "Allow", Kind: AllowOnce}}
	if v.AllowAlways != nil {
		req.Options = append(req.Options, PermissionOption{ID: string(AllowAlways), Name: v.AllowAlways.Option, Kind: AllowAlways})
	}
	req.Options = append(req.Options, PermissionOption{ID: string(RejectOnce), Name: "Reject", Kind: RejectOnce})
	if v.RejectAlways != nil {
		req.Options = append(req.Options, PermissionOption{ID: string(RejectAlways), Name: v.RejectAlways.Option, Kind: RejectAlways})
	}
	return req
}

// judgeWith runs the policy against the rules rs, with the user's home
// filled in for rules written ~/….
func judgeWith(m policy.Mode, call policy.Call, rs policy.Rules) policy.Verdict {
	call.Home, _ = os.UserHomeDir()
	return policy.Decide(m, call, rs)
}

// denyStillWins tells the user when the "Always allow" just saved cannot
// take effect: a deny rule covers the call (another session's "Always
// reject" saved while this question was open, say), and deny comes first.
// This call goes ahead, since it was the answer to it; later ones are
// refused until the deny is removed.
func (p *permissions) denyStillWins(m Mode, call policy.Call, g *policy.Grant) {
	s := p.s
	after := judgeWith(policy.Mode(m), call, p.rules(context.Background()))
	if after.Decision != policy.Deny || after.Denier == nil {
		return
	}
	s.notice(fmt.Sprintf("%q was saved, but the rule %s (%s) denies it, and deny comes first: later calls like this one are refused. /permissions lists the rules; /permissions remove %s drops that one.",
		g.Option, after.Denier, after.Denier.Source, after.Denier))
}

// grant remembers an "always" answer for the rest of the session only.
func (p *permissions) grant(d policy.Decision, rules []policy.Rule) {
	s := p.s
	s.do(context.Background(), func() { p.grants.Add(d, rules...); p.publishRules() })
}
