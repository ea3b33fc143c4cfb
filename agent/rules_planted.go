package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/settings"
	"github.com/tandemhq/tandem/agent/tools"
)

// commandWatch is the Host the tools run commands through: it notices
// allow rules a command writes into .tandem/settings.local.json (the
// sandbox keeps .tandem read-only only where it exists), so they wait for
// the user's consent instead of widening what runs unasked.
type commandWatch struct {
	tools.Host
	s *Session
	t *turnRun // whose view has the sandbox switch
}

func (h commandWatch) RunCommand(ctx context.Context, spec tools.CommandSpec) (tools.CommandResult, error) {
	// The sandbox switch off runs every command the way an approved
	// unsandboxed one runs; the policy already asked as for unconfined ones.
	if h.s.perms.unconfined(h.t.view().toggles) == toggleSandboxOff {
		spec.Unsandboxed = true
	}
	before := settings.ReadLocal(h.s.root)
	res, err := h.Host.RunCommand(ctx, spec)
	if added := before.Added(settings.ReadLocal(h.s.root)); len(added) > 0 {
		h.s.perms.planted(context.WithoutCancel(ctx), added)
	}
	return res, err
}

// planted marks allow rules a command wrote as needing consent, for this
// session and, through $TANDEM_HOME, later ones; and says so.
func (p *permissions) planted(ctx context.Context, texts []string) {
	s := p.s
	s.change(func() { p.files.planted = append(p.files.planted, texts...) })
	if s.a.cfg.Home != "" {
		if err := (settings.Consents{Home: s.a.cfg.Home}).MarkPlanted(s.root, texts...); err != nil {
			s.a.log.Warn("remembering rules a command wrote", "session", s.id, "err", err)
		}
	}
	s.notice(fmt.Sprintf("A command added %s to %s. They are not in force: you did not write them. They will be shown for your consent at the next prompt; /permissions lists them.",
		strings.Join(texts, ", "), s.display(settings.LocalFile(s.root))))
	p.refreshRules(ctx, true)
}
