package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
)

func (a *Agent) instructionsConfig() instructions.Config {
	if a.cfg.Instructions != nil {
		return *a.cfg.Instructions
	}
	return instructions.DefaultConfig(a.cfg.Home)
}

// prepare is the turn's first step before any request: it warms the code
// index, asks about the project's MCP servers and allow rules, and adds the workspace
// instructions baseline when the history the model sees does not carry
// one; on a resumed session it appends what changed while tandem was away.
func (t *turnRun) prepare() error {
	s, ctx := t.s, t.ctx
	s.index.warm()
	if err := s.mcp.askProject(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.a.log.Warn("asking to start project MCP servers", "session", s.id, "err", err)
	}
	t.awaitMCP()
	if err := s.perms.askProjectRules(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.a.log.Warn("asking about the project's allow rules", "session", s.id, "err", err)
	}
	tr := t.instr.tr
	if !tr.Enabled() {
		return nil
	}
	resumed := !t.instr.reconciled
	var b *instructions.Batch
	var err error
	if tr.HasBaseline() {
		if resumed {
			b, err = tr.Reconcile(ctx, nil)
			t.instr.reconciled = true
		}
	} else {
		b, err = tr.Baseline(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Instructions are guidance: a failure to read them must not stop
		// the user's prompt. Say so and go on.
		s.a.log.Warn("workspace instructions", "session", s.id, "err", err)
		b = nil
	}
	// The additional roots follow the primary's, in the same message, one
	// root after another in the order the editor gave them.
	bs := append([]*instructions.Batch{b}, t.rootsInstructions(func(rt rootInstr) ([]*instructions.Batch, error) {
		switch {
		case !rt.tr.HasBaseline():
			return one(t.rootBaseline(ctx, rt))
		case resumed:
			return one(rt.tr.Reconcile(ctx, nil))
		}
		return nil, nil
	})...)
	if text := t.instructionsText(bs); text != "" {
		t.appendHistory(llm.Text(llm.RoleUser, text))
	}
	return nil
}

// instructionsAfterTools reconciles workspace instructions along the paths
// the last tool calls touched, returning the text to add after their
// results ("" when nothing changed).
func (t *turnRun) instructionsAfterTools(touched []string) string {
	s, ctx := t.s, t.ctx
	tr := t.instr.tr
	if len(touched) == 0 || !tr.Enabled() {
		return ""
	}
	var b *instructions.Batch
	if own := s.touchedIn(s.root, touched); len(own) > 0 {
		var err error
		if b, err = tr.Reconcile(ctx, own); err != nil {
			if ctx.Err() == nil {
				s.a.log.Warn("workspace instructions", "session", s.id, "err", err)
			}
			b = nil
		}
	}
	bs := append([]*instructions.Batch{b}, t.rootsInstructions(func(rt rootInstr) ([]*instructions.Batch, error) {
		if own := s.touchedIn(rt.root, touched); len(own) > 0 {
			return one(rt.tr.Reconcile(ctx, own))
		}
		return nil, nil
	})...)
	return t.instructionsText(bs)
}

// publishInstructions tells the actor what is loaded now, so front doors
// can list it while the turn still holds the tracker.
func (t *turnRun) publishInstructions() {
	scopes, baseline := t.instr.tr.Loaded(), t.instr.tr.HasBaseline()
	for _, rt := range t.instr.roots {
		scopes = append(scopes, rt.tr.Loaded()...)
	}
	t.s.do(context.Background(), func() { t.s.custom.scopes, t.s.custom.baseline = scopes, baseline })
}

// restoreInstructions rebuilds instruction state from logged metadata.
// It runs before the actor starts.
func (p *customization) restoreInstructions(raw []json.RawMessage) {
	s := p.s
	st := p.newInstr()
	p.instr = st
	byRoot := map[string][]instructions.Meta{}
	for _, r := range raw {
		var m instructions.Meta
		if err := json.Unmarshal(r, &m); err != nil {
			s.a.log.Warn("session log: bad instructions record skipped", "session", s.id, "err", err)
			continue
		}
		byRoot[m.Root] = append(byRoot[m.Root], m)
	}
	if err := st.tr.Restore(byRoot[""]); err != nil {
		s.a.log.Warn("restoring workspace instructions", "session", s.id, "err", err)
	}
	scopes := st.tr.Loaded()
	for _, rt := range st.roots {
		if err := rt.tr.Restore(byRoot[rt.root]); err != nil {
			s.a.log.Warn("restoring workspace instructions of an additional root", "session", s.id, "root", rt.root, "err", err)
		}
		scopes = append(scopes, rt.tr.Loaded()...)
	}
	p.scopes, p.baseline = scopes, st.tr.HasBaseline()
}

// newInstr is a session's instruction trackers before anything was
// sent: the primary root's and one per additional root.
func (p *customization) newInstr() *instrState {
	s := p.s
	return &instrState{tr: instructions.NewTracker(s.a.instructionsConfig(), s.root), roots: s.a.rootTrackers(s.roots)}
}

// Instructions lists the instruction files the session has loaded.
func (s *Session) Instructions() (scopes []instructions.Scope) {
	s.read(func() { scopes = s.custom.scopes })
	return scopes
}

func (p *customization) describeInstructions() string {
	s := p.s
	var (
		scopes []instructions.Scope
		loaded bool
	)
	s.read(func() { scopes, loaded = p.scopes, p.baseline })
	if len(scopes) == 0 {
		if !loaded {
			return "No workspace instructions are loaded yet: they load with the first prompt."
		}
		return "No workspace instruction files apply to this session."
	}
	var b strings.Builder
	b.WriteString("Workspace instructions loaded in this session:\n")
	for _, sc := range scopes {
		fmt.Fprintf(&b, "- %s (%d bytes, sha1 %.12s)", sc.Path, sc.Bytes, sc.Digest)
		if sc.Truncated {
			b.WriteString(", truncated to fit the budget")
		}
		b.WriteString("\n")
	}
	return b.String()
}
