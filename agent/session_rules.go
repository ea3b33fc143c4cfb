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

func (s *Session) settingsOptions(planted []string) settings.Options {
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
func (s *Session) refreshRules(ctx context.Context, force bool) {
	var cur settings.Set
	var planted []string
	s.read(func() { cur, planted = s.st.rules.set, slices.Clone(s.st.rules.planted) })
	if !force && !cur.Stale() {
		return
	}
	set := settings.Load(ctx, s.settingsOptions(planted))
	var news []string
	s.change(func() {
		if s.st.rules.accepted != "" {
			set.Accept(s.st.rules.accepted)
		}
		for _, p := range set.Problems {
			if !slices.Contains(s.st.rules.set.Problems, p) {
				news = append(news, p)
			}
		}
		s.st.rules.set = set
		s.publishRules()
	})
	for _, p := range news {
		s.notice(p)
	}
}

// rules are the rules in force: the settings files' (with the project's
// allow rules only once accepted) and the session's own grants.
func (s *Session) rules(ctx context.Context) policy.Rules { return s.rulesIn(ctx, nil) }

// rulesIn is rules for a turn: those its view carries while the settings
// files stay as they were, the common case (every tool call asks for the
// rules, some twice), with no trip to the actor; v is nil outside a turn.
func (s *Session) rulesIn(ctx context.Context, v *turnView) policy.Rules {
	if v != nil && v.rules != nil && !v.rules.set.Stale() {
		return v.rules.rules
	}
	s.refreshRules(ctx, false)
	var rs policy.Rules
	s.read(func() { rs = s.st.rules.set.Rules().Merge(s.st.grants) })
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
func (s *Session) publishRules() {
	s.st.rulesNow = &rulesSnapshot{set: s.st.rules.set, rules: s.st.rules.set.Rules().Merge(s.st.grants)}
	s.viewChanged()
}

// remember keeps an "always" answer: saved to the project's
// settings.local.json, so it holds in later sessions too and takes effect
// at once; when the file cannot be written, for this session only, and
// the user is told.
func (s *Session) remember(ctx context.Context, d policy.Decision, rules []policy.Rule) {
	texts := make([]string, len(rules))
	for i, r := range rules {
		texts[i] = r.String()
	}
	err := settings.SaveLocal(s.root, d, texts...)
	if err == nil {
		s.refreshRules(ctx, true)
		return
	}
	s.a.log.Warn("saving a permission rule", "session", s.id, "err", err)
	s.notice(fmt.Sprintf("%s could not be saved (%v); it holds for this session only.", strings.Join(texts, ", "), err))
	for i := range rules {
		rules[i].Source = policy.SourceSession
	}
	s.grant(d, rules)
}

// askProjectRules asks, once per list, before the allow rules a
// repository commits take effect: they widen what runs without asking, and
// a clone is no reason to trust them. "Always" is remembered in
// $TANDEM_HOME/consent.json for exactly this list, so a changed list asks
// again; "Allow" holds for this session.
func (s *Session) askProjectRules(ctx context.Context) error {
	s.refreshRules(ctx, false)
	var set settings.Set
	var asked bool
	if err := s.change(func() {
		set, asked = s.st.rules.set, s.st.rules.asked == s.st.rules.set.Digest
		s.st.rules.asked = set.Digest
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
			s.st.rules.accepted = set.Digest
			s.st.rules.set.Accept(set.Digest)
			s.publishRules()
		})
	default:
		s.notice("The allow rules in " + where + " are not in force; the calls they name will ask. /permissions lists them.")
	}
	return nil
}
