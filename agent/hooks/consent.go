package hooks

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/settings"
	"github.com/tandemhq/tandem/agent/tools"
)

func (h *Hooks) consents() settings.Consents { return settings.Consents{Home: h.o.Home} }

// askConsent asks, once per set, before a repository's hooks run: they are
// commands whoever wrote the repository chose. "Always" is remembered in
// $TANDEM_HOME/consent.json for exactly this set; a changed set asks again.
// Until the user agrees the repository's hooks do not run; the user's own
// and enabled plugins' hooks do.
func (h *Hooks) askConsent(ctx context.Context, ss *session) error {
	root := ss.s.Root()
	srcs := h.current(ss)
	d := digest(srcs)
	var settled bool
	h.update(ss, func(ss *session) { settled = d == "" || ss.accepted == d || ss.declined == d })
	if settled || h.consents().HasHooks(root, d) {
		return nil
	}
	var list strings.Builder
	for _, s := range srcs {
		if !s.Project {
			continue
		}
		for event, groups := range s.Config {
			for _, g := range groups {
				for _, c := range g.Hooks {
					fmt.Fprintf(&list, "- %s %s: %s (%s)\n", event, g.Matcher, c.Command, s.Path)
				}
			}
		}
	}
	dec, err := ss.s.RequestPermission(ctx, agent.PermissionRequest{
		ToolCall: agent.ToolCall{ID: "project-hooks", Title: "Run the hook commands this repository's settings name",
			Kind: tools.KindExecute, Status: agent.ToolPending, Content: []agent.ToolContent{agent.TextContent(list.String())}},
		Options: []agent.PermissionOption{
			{ID: string(agent.AllowOnce), Name: "Run them in this session", Kind: agent.AllowOnce},
			{ID: string(agent.AllowAlways), Name: "Always run these hooks in this project", Kind: agent.AllowAlways},
			{ID: string(agent.RejectOnce), Name: "Do not run them", Kind: agent.RejectOnce},
		},
	})
	switch {
	case errors.Is(err, agent.ErrCannotAsk):
		h.update(ss, func(ss *session) { ss.declined = d })
		ss.s.Notice("The repository's hooks do not run: this editor cannot show the prompt that allows them.")
		return nil
	case err != nil:
		return err
	case dec.Cancelled:
		return context.Canceled
	case dec.Kind == agent.AllowAlways:
		if err := h.consents().AddHooks(root, d); err != nil {
			ss.s.Notice(fmt.Sprintf("Your consent could not be saved (%v); the hooks run in this session only.", err))
		}
		fallthrough
	case dec.Kind == agent.AllowOnce:
		h.update(ss, func(ss *session) { ss.accepted = d })
	default:
		h.update(ss, func(ss *session) { ss.declined = d })
		ss.s.Notice("The repository's hooks do not run in this session.")
	}
	return nil
}
