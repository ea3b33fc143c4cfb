package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/tools"
)

// textOutput is --output-format text: the answer on stdout, one line per
// tool call with its status, diffs, command output and the plan on stderr.
type textOutput struct {
	scr  *screen
	name string // prefixes errors: "tandem run"

	mu      sync.Mutex // guards the fields below
	calls   map[string]*callView
	plan    []agent.PlanEntry
	context *agent.ContextUsage
}

// callView is what the output remembers of one tool call.
type callView struct {
	title  string
	kind   tools.Kind
	output string // a command's output so far
}

func newTextOutput(scr *screen) *textOutput {
	return &textOutput{scr: scr, name: "tandem run", calls: map[string]*callView{}}
}

func (o *textOutput) screen() *screen { return o.scr }

func (o *textOutput) start(*agent.Session) {
	o.scr.update(func(s *screen) { s.working, s.started, s.activity = true, time.Now(), "" })
}

func (o *textOutput) send(u agent.Update) {
	switch u.Type {
	case agent.AgentMessageChunk:
		if u.Chunk != nil {
			o.scr.update(func(s *screen) { s.activity = "" })
			o.scr.answer(u.Chunk.Text)
		}
	case agent.AgentThoughtChunk:
		o.scr.update(func(s *screen) { s.activity = "thinking" })
	case agent.ToolCallStarted:
		o.mu.Lock()
		o.calls[u.Tool.ID] = &callView{title: u.Tool.Title, kind: u.Tool.Kind}
		o.mu.Unlock()
		o.scr.update(func(s *screen) { s.running = append(s.running, u.Tool.Title) })
	case agent.ToolCallUpdated:
		o.toolUpdate(u.Tool)
	case agent.UsageUpdated:
		o.mu.Lock()
		o.context = u.Usage
		o.mu.Unlock()
		o.scr.update(func(s *screen) { s.tokens = u.Usage.Used })
	case agent.PlanUpdated:
		o.showPlan(u.Plan)
	}
}

// toolUpdate follows a call: a command's output feeds the live tail; the
// end prints the call's one line (and a command's last lines).
func (o *textOutput) toolUpdate(t *agent.ToolCall) {
	o.mu.Lock()
	c := o.calls[t.ID]
	if c == nil {
		c = &callView{}
		o.calls[t.ID] = c
	}
	old := c.title
	if t.Title != "" {
		c.title = t.Title
	}
	text := contentText(t.Content)
	if c.kind == tools.KindExecute && text != "" && t.Status != agent.ToolCompleted && t.Status != agent.ToolFailed {
		c.output = text
	}
	if c.kind == tools.KindExecute && text != "" && (t.Status == agent.ToolCompleted || t.Status == agent.ToolFailed) {
		// The result leads with how the command ended; the status line
		// (and a failure's reason) says that already.
		_, c.output, _ = strings.Cut(text, "\n")
	}
	c2 := *c
	o.mu.Unlock()

	st := o.scr.style
	switch t.Status {
	case agent.ToolCompleted, agent.ToolFailed:
		lines := []string{st.green("✓") + " " + c2.title}
		if t.Status == agent.ToolFailed {
			lines = []string{st.red("✗") + " " + c2.title + st.red(reason(text))}
		}
		if c2.kind == tools.KindExecute && c2.output != "" {
			for _, l := range lastLines(c2.output, tailLines) {
				lines = append(lines, st.dim("  │ "+l))
			}
		}
		o.scr.update(func(s *screen) { s.running, s.tail = removeOne(s.running, old), nil })
		o.scr.println(lines...)
	default:
		o.scr.update(func(s *screen) {
			if i := slices.Index(s.running, old); i >= 0 {
				s.running[i] = c2.title
			}
			if c2.kind == tools.KindExecute {
				s.tail = lastLines(c2.output, tailLines)
			}
		})
	}
}

// showPlan prints the plan as a checklist when it changed.
func (o *textOutput) showPlan(plan []agent.PlanEntry) {
	o.mu.Lock()
	same := slices.Equal(plan, o.plan)
	o.plan = slices.Clone(plan)
	o.mu.Unlock()
	if same {
		return
	}
	st := o.scr.style
	lines := []string{st.bold("Plan:")}
	for _, e := range plan {
		switch e.Status {
		case "completed":
			lines = append(lines, st.dim("  [x] "+e.Content))
		case "in_progress":
			lines = append(lines, "  [~] "+st.bold(e.Content))
		default:
			lines = append(lines, "  [ ] "+e.Content)
		}
	}
	o.scr.println(lines...)
}

func (o *textOutput) edited(path string, fe edits.FileEdit) {
	if d := edits.Unified(path, fe); d != "" {
		o.scr.println(o.scr.style.diff(d)...)
	}
}

func (o *textOutput) permission(agent.PermissionRequest, string, string) {}

func (o *textOutput) finish(r runResult) {
	o.scr.idle()
	o.mu.Lock()
	line := summary(r.usage, o.context)
	o.mu.Unlock()
	var lines []string
	if line != "" {
		lines = append(lines, o.scr.style.dim(line))
	}
	if r.err != nil {
		lines = append(lines, fmt.Sprintf("%s: %v", o.name, r.err))
	}
	o.scr.println(lines...)
}

// contentText joins a tool call's text content.
func contentText(cs []agent.ToolContent) string {
	var parts []string
	for _, c := range cs {
		if c.Content != nil && c.Content.Text != "" {
			parts = append(parts, c.Content.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// reason is a failed call's first line, as ": why".
func reason(text string) string {
	if l := firstLine(text); l != "" {
		return ": " + l
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// lastLines returns up to n of text's last non-empty lines.
func lastLines(text string, n int) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

func removeOne(list []string, s string) []string {
	if i := slices.Index(list, s); i >= 0 {
		return slices.Delete(slices.Clone(list), i, i+1)
	}
	return list
}
