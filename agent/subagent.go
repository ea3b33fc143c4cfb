package agent

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
)

// A subagent is a child turn the task tool runs on its parent's session:
// the same root, host, mode, grants and permission questions (its calls go
// through the same seams and policy, and asks reach the same editor), but
// its own history, system prompt, model and tools. It runs on the task
// call's goroutine under the call's context, so cancelling the parent turn
// cancels it; its requests count toward the session's usage. Its updates
// reach the editor and the log as the session's do, each nested under the
// task call (nest); its history is never logged as the session's.
type subagent struct {
	def        custom.Subagent
	system     string
	parentCall string
}

// nest marks u as the child's, under its task call; it does nothing for
// the session's own turn (c is nil).
func (c *subagent) nest(u *Update) { u.Nest = c.nesting() }

// nesting is where the child's work belongs; nil for the session's own.
func (c *subagent) nesting() *Nesting {
	if c == nil {
		return nil
	}
	return &Nesting{ParentCall: c.parentCall, Agent: c.def.Name}
}

// offered narrows the session's catalog to what the child may call: the
// groups its definition grants (read-only by default), never the task tool
// itself, so children start no children. The mode's own limits apply on
// top, in the request (turn.Request) and at the call.
func (c *subagent) offered(catalog []tools.Tool) []tools.Tool {
	return slices.DeleteFunc(slices.Clone(catalog), func(tl tools.Tool) bool {
		info := tl.Info()
		return info.Name == tools.TaskName || !slices.Contains(c.def.Groups, string(info.Group))
	})
}

// shape turns the session's request settings into the child's: its own
// system prompt, its model when the definition names one, and its tools.
// It does nothing for the session's own turn (c is nil).
func (c *subagent) shape(set *turn.Settings) {
	if c == nil {
		return
	}
	set.System = c.system
	if c.def.Model != "" {
		set.Model = c.def.Model
	}
	set.Tools = c.offered(set.Tools)
}

// childSystemPrompt is a child's system prompt: its definition's body, then
// where it works and what its last message is for. Fixed per definition and
// session, so a child's requests share a cacheable prefix too.
func (p *customization) childSystemPrompt(def custom.Subagent) string {
	s := p.s
	return fmt.Sprintf(`%s

Workspace root: %s
Platform: %s/%s

Another agent handed you this job through its task tool. Paths are relative to the workspace root. Work with the tools you were given, then end with one final message: it is your whole report, the only thing the other agent will read.`,
		def.Prompt, s.root, runtime.GOOS, runtime.GOARCH)
}

// delegate runs def on prompt as a child turn and returns its report: the
// text of its last response.
func (s *Session) delegate(ctx context.Context, def custom.Subagent, parentCall, prompt string) (string, error) {
	if s.a.cfg.Provider == nil {
		return "", ErrNotConfigured
	}
	t := &turnRun{s: s, ctx: ctx, sub: &subagent{def: def, system: s.custom.childSystemPrompt(def), parentCall: parentCall}}
	// The child follows the session's settings as its parent does, with
	// its own view (its calls run beside the parent's other calls).
	if s.do(ctx, func() { t.feed = s.watch() }) != nil {
		t.feed.cur = s.viewNow()
	}
	defer s.do(context.Background(), func() { s.unwatch(t.feed) })
	out, err := turn.Run(ctx, t.config(), t, llm.Text(llm.RoleUser, prompt))
	switch {
	case err != nil:
		return "", err
	case out.Stop == turn.Cancelled:
		return "", ctx.Err()
	case out.Stop == turn.MaxTurnRequests:
		return "", fmt.Errorf("it made %d model requests without finishing", s.a.cfg.MaxTurnRequests)
	}
	return reportOf(out.Last), nil
}

// reportOf is the text of a child's last message.
func reportOf(m llm.Message) string {
	var b strings.Builder
	for _, p := range m.Content {
		if p.Type == llm.PartText {
			b.WriteString(p.Text)
		}
	}
	if r := strings.TrimSpace(b.String()); r != "" {
		return r
	}
	return "(the subagent finished without a report)"
}
