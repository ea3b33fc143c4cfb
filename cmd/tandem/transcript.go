package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/store"
)

// recordUpdate is the store record kind holding an agent.Update: the
// events a replay shows, which is what a transcript is made of.
const recordUpdate = "update"

// transcript renders a stored session as Markdown: a heading with its
// metadata, then each message under its speaker, tool calls as one line
// each with their final status, and plans as checklists.
func transcript(meta store.Meta, recs []store.Record) string {
	var b strings.Builder
	title := meta.Title
	if title == "" {
		title = meta.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- session: `%s`\n- directory: `%s`\n", meta.ID, meta.Cwd)
	if meta.Model != "" {
		fmt.Fprintf(&b, "- model: %s\n", meta.Model)
	}
	fmt.Fprintf(&b, "- created: %s\n- updated: %s\n", meta.Created.Local().Format("2006-01-02 15:04"), meta.Updated.Local().Format("2006-01-02 15:04"))

	speaker := ""
	calls := map[string]*agent.ToolCall{}
	var order []string
	flushCalls := func() {
		for _, id := range order {
			c := calls[id]
			mark := map[agent.ToolStatus]string{agent.ToolCompleted: "✓", agent.ToolFailed: "✗"}[c.Status]
			if mark == "" {
				mark = "…"
			}
			fmt.Fprintf(&b, "- %s %s\n", mark, c.Title)
		}
		order = order[:0]
	}
	// para ends the text so far with a blank line, so what follows is a
	// paragraph of its own.
	para := func() {
		s := b.String()
		switch {
		case strings.HasSuffix(s, "\n\n"):
		case strings.HasSuffix(s, "\n"):
			b.WriteString("\n")
		default:
			b.WriteString("\n\n")
		}
	}
	say := func(who string) {
		if speaker != who {
			flushCalls()
			para()
			fmt.Fprintf(&b, "## %s\n\n", who)
			speaker = who
		}
	}
	for _, r := range recs {
		if r.Kind != recordUpdate {
			continue
		}
		var u agent.Update
		if json.Unmarshal(r.Data, &u) != nil {
			continue
		}
		u = u.ToolCallForm()
		switch u.Type {
		case agent.UserMessageChunk:
			say("User")
			b.WriteString(chunkText(u.Chunk))
		case agent.AgentMessageChunk:
			say("Assistant")
			if len(order) > 0 {
				flushCalls()
				para()
			}
			b.WriteString(chunkText(u.Chunk))
		case agent.ToolCallStarted:
			say("Assistant")
			if len(order) == 0 {
				para()
			}
			c := *u.Tool
			calls[c.ID] = &c
			order = append(order, c.ID)
		case agent.ToolCallUpdated:
			if c := calls[u.Tool.ID]; c != nil {
				if u.Tool.Status != "" {
					c.Status = u.Tool.Status
				}
				if u.Tool.Title != "" {
					c.Title = u.Tool.Title
				}
			}
		case agent.PlanUpdated:
			flushCalls()
			para()
			b.WriteString("Plan:\n\n")
			for _, e := range u.Plan {
				box := map[string]string{"completed": "x", "in_progress": "~"}[e.Status]
				if box == "" {
					box = " "
				}
				fmt.Fprintf(&b, "- [%s] %s\n", box, e.Content)
			}
		}
	}
	flushCalls()
	s := b.String()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

func chunkText(c *agent.ContentBlock) string {
	switch {
	case c == nil:
		return ""
	case c.Type == "text":
		return c.Text
	case c.Type == "resource_link" || c.Type == "resource":
		return fmt.Sprintf("[%s](%s)", c.Name, c.URI)
	}
	return "[" + c.Type + "]"
}
