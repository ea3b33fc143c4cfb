package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/settings"
	"github.com/tandemhq/tandem/agent/tools"
)

// permissions is the session's permission part: the settings files'
// rules, the session's own grants, the rules in force they make, and the
// decisions that use them (judgeAsk, checkRead, readHidden). Its fields
// other than s belong to the actor; its methods that run elsewhere reach
// them by messages, and a turn reads the rules in force from its view.
type permissions struct {
	s      *Session
	files  rulesState     // the settings files' rules
	grants policy.Rules   // "always" answers that could not be saved to a file
	now    *rulesSnapshot // the rules in force as of the last change; nil until first read
}

// rulesState is the actor's view of the permission rules: the settings
// files as last read, and what the user said about the project's allow
// rules in this session.
type rulesState struct {
	set settings.Set
	// accepted is the digest of the project allow list the user accepted
	// for this session; asked the one last put to them (asked once).
	accepted, asked string
	// planted are allow rules a command wrote into settings.local.json
	// (also kept in $TANDEM_HOME when there is one).
	planted []string
}

func (p *permissions) settingsOptions(planted []string) settings.Options {
	s := p.s
	home, _ := os.UserHomeDir()
	consents := settings.Consents{Home: s.a.cfg.Home}
	return settings.Options{Home: s.a.cfg.Home, UserHome: home, Root: s.root,
		Consented: func(d string) bool { return consents.Has(s.root, d) },
		Planted: func(text string) bool {
			return slices.Contains(planted, text) || consents.Planted(s.root, text)
		}}
}

// refreshRules rereads the settings files when one changed since the last
// read (or always, with force), off the actor, and tells the user once
// about a file or rule it had to skip.
func (p *permissions) refreshRules(ctx context.Context, force bool) {
	s := p.s
	var cur settings.Set
	var planted []string
	s.read(func() { cur, planted = p.files.set, slices.Clone(p.files.planted) })
	if !force && !cur.Stale() {
		return
	}
	set := settings.Load(ctx, p.settingsOptions(planted))
	var news []string
	s.change(func() {
		if p.files.accepted != "" {
			set.Accept(p.files.accepted)
		}
		for _, pr := range set.Problems {
			if !slices.Contains(p.files.set.Problems, pr) {
				news = append(news, pr)
			}
		}
		p.files.set = set
		p.publishRules()
	})
	for _, n := range news {
		s.notice(n)
	}
}

// rules are the rules in force: the settings files' (with the project's
// allow rules only once accepted) and the session's own grants.
func (p *permissions) rules(ctx context.Context) policy.Rules { return p.rulesIn(ctx, nil) }

// rulesIn is rules for a turn: those its view carries while the settings
// files stay as they were, the common case (every tool call asks for the
// rules, some twice), with no trip to the actor; v is nil outside a turn.
func (p *permissions) rulesIn(ctx context.Context, v *turnView) policy.Rules {
	s := p.s
	if v != nil && v.rules != nil && !v.rules.set.Stale() {
		return v.rules.rules
	}
	p.refreshRules(ctx, false)
	var rs policy.Rules
	s.read(func() { rs = p.files.set.Rules().Merge(p.grants) })
	return rs
}

// rulesSnapshot is the rules in force and the settings they came from,
// as the actor last changed them.
type rulesSnapshot struct {
	set   settings.Set
	rules policy.Rules
}

// publishRules records what rulesIn returns while the settings files stay
// as they are, and sends it to the running turns; on the actor, after
// every change to the settings rules, their acceptance or the session's
// grants.
func (p *permissions) publishRules() {
	s := p.s
	p.now = &rulesSnapshot{set: p.files.set, rules: p.files.set.Rules().Merge(p.grants)}
	s.viewChanged()
}

// remember keeps an "always" answer: saved to the project's
// settings.local.json, so it holds in later sessions too and takes effect
// at once; when the file cannot be written, for this session only, and
// the user is told.
func (p *permissions) remember(ctx context.Context, d policy.Decision, rules []policy.Rule) {
	s := p.s
	texts := make([]string, len(rules))
	for i, r := range rules {
		texts[i] = r.String()
	}
	err := settings.SaveLocal(s.root, d, texts...)
	if err == nil {
		p.refreshRules(ctx, true)
		return
	}
	s.a.log.Warn("saving a permission rule", "session", s.id, "err", err)
	s.notice(fmt.Sprintf("%s could not be saved (%v); it holds for this session only.", strings.Join(texts, ", "), err))
	for i := range rules {
		rules[i].Source = policy.SourceSession
	}
	p.grant(d, rules)
}

// askProjectRules asks, once per list, before the allow rules a
// repository commits take effect: they widen what runs without asking, and
// a clone is no reason to trust them. "Always" is remembered in
// $TANDEM_HOME/consent.json for exactly this list, so a changed list asks
// again; "Allow" holds for this session.
func (p *permissions) askProjectRules(ctx context.Context) error {
	s := p.s
	p.refreshRules(ctx, false)
	var set settings.Set
	var asked bool
	if err := s.change(func() {
		set, asked = p.files.set, p.files.asked == p.files.set.Digest
		p.files.asked = set.Digest
	}); err != nil || len(set.Pending) == 0 || asked {
		return nil
	}
	var list strings.Builder
	var files []string
	for _, e := range set.Entries {
		if !e.Active {
			fmt.Fprintf(&list, "- %s (%s)\n", e.Text, e.Source)
			if !slices.Contains(files, e.Source) {
				files = append(files, e.Source)
			}
		}
	}
	where := strings.Join(files, " and ")
	d, err := s.host.RequestPermission(ctx, PermissionRequest{
		ToolCall: ToolCall{ID: "project-allow-rules", Title: "Let " + where + " allow these without asking",
			Kind: tools.KindOther, Status: ToolPending, Content: []ToolContent{TextContent(list.String())}},
		Options: []PermissionOption{
			{ID: string(AllowOnce), Name: "Allow in this session", Kind: AllowOnce},
			{ID: string(AllowAlways), Name: "Always allow these rules in this project", Kind: AllowAlways},
			{ID: string(RejectOnce), Name: "Keep asking", Kind: RejectOnce},
		},
	})
	switch {
	case errors.Is(err, ErrCannotAsk):
		s.notice("The allow rules in " + where + " are not in force: the repository wrote them, and this editor cannot show the prompt that accepts them.")
		return nil
	case err != nil:
		return err
	case d.Cancelled:
		return context.Canceled
	case d.Kind == AllowAlways:
		if err := (settings.Consents{Home: s.a.cfg.Home}).Add(s.root, set.Digest); err != nil {
			s.notice(fmt.Sprintf("Your consent could not be saved (%v); the rules hold for this session only.", err))
		}
		fallthrough
	case d.Kind == AllowOnce:
		s.change(func() {
			p.files.accepted = set.Digest
			p.files.set.Accept(set.Digest)
			p.publishRules()
		})
	default:
		s.notice("The allow rules in " + where + " are not in force; the calls they name will ask. /permissions lists them.")
	}
	return nil
}
