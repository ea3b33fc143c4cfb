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

// noteTouched remembers paths a tool call read or wrote successfully.
func (s *Session) noteTouched(paths []string) {
	s.extra.touchedMu.Lock()
	s.extra.touched = append(s.extra.touched, paths...)
	s.extra.touchedMu.Unlock()
}

func (s *Session) takeTouched() []string {
	s.extra.touchedMu.Lock()
	defer s.extra.touchedMu.Unlock()
	t := s.extra.touched
	s.extra.touched = nil
	return t
}

// beforeFirstRequest adds the workspace instructions baseline when the
// history the model sees does not carry one; on a resumed session it
// appends what changed while tandem was away instead.
func (s *Session) beforeFirstRequest(ctx context.Context) error {
	s.warmIndex()
	if err := s.askProjectMCP(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.a.log.Warn("asking to start project MCP servers", "session", s.id, "err", err)
	}
	s.extra.instrMu.Lock()
	defer s.extra.instrMu.Unlock()
	tr := s.extra.instr
	if !tr.Enabled() {
		return nil
	}
	var b *instructions.Batch
	var err error
	if tr.HasBaseline() {
		if !s.extra.reconciled {
			b, err = tr.Reconcile(ctx, nil)
			s.extra.reconciled = true
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
		return nil
	}
	if b != nil {
		s.record(recInstructions, b.Meta)
		s.appendHistory(llm.Text(llm.RoleUser, b.Text))
	}
	return nil
}

// instructionsAfterTools reconciles workspace instructions along the paths
// the last tool calls touched, returning the text to add after their
// results ("" when nothing changed).
func (s *Session) instructionsAfterTools(ctx context.Context) string {
	touched := s.takeTouched()
	s.extra.instrMu.Lock()
	defer s.extra.instrMu.Unlock()
	tr := s.extra.instr
	if len(touched) == 0 || !tr.Enabled() {
		return ""
	}
	b, err := tr.Reconcile(ctx, touched)
	if err != nil {
		if ctx.Err() == nil {
			s.a.log.Warn("workspace instructions", "session", s.id, "err", err)
		}
		return ""
	}
	if b == nil {
		return ""
	}
	s.record(recInstructions, b.Meta)
	return b.Text
}

// restoreInstructions rebuilds instruction state from logged metadata.
func (s *Session) restoreInstructions(raw []json.RawMessage) {
	s.extra.instr = instructions.NewTracker(s.a.instructionsConfig(), s.root)
	var metas []instructions.Meta
	for _, r := range raw {
		var m instructions.Meta
		if err := json.Unmarshal(r, &m); err != nil {
			s.a.log.Warn("session log: bad instructions record skipped", "session", s.id, "err", err)
			continue
		}
		metas = append(metas, m)
	}
	if err := s.extra.instr.Restore(metas); err != nil {
		s.a.log.Warn("restoring workspace instructions", "session", s.id, "err", err)
	}
}

// Instructions lists the instruction files the session has loaded.
func (s *Session) Instructions() []instructions.Scope {
	s.extra.instrMu.Lock()
	defer s.extra.instrMu.Unlock()
	return s.extra.instr.Loaded()
}

func (s *Session) describeInstructions() string {
	s.extra.instrMu.Lock()
	scopes, loaded := s.extra.instr.Loaded(), s.extra.instr.HasBaseline()
	s.extra.instrMu.Unlock()
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
