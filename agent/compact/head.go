package compact

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// HeadPrefix starts the message that replaces the summarised turns.
const HeadPrefix = "[This conversation was compacted to fit the model's context window. The earlier part is summarised below; the messages after this one are verbatim.]"

// requestCap bounds the user's last request quoted in the head.
const requestCap = 8_000

// head is the user message standing for the summarised turns: the model's
// summary, then what must survive whatever the summary says, taken from
// the turns themselves: the files touched, the plan as last set (when the
// kept turns do not set it again) and the user's last request, verbatim.
func head(old, kept []llm.Message, summary string, reinjected func(llm.Part) bool) llm.Message {
	var b strings.Builder
	b.WriteString(HeadPrefix + "\n\n<summary>\n" + summary + "\n</summary>\n")
	if files := filesTouched(old); files != "" {
		b.WriteString("\nFiles the summarised turns used (tool: path):\n" + files)
	}
	if cmds := commandsRun(old); cmds != "" {
		b.WriteString("\nCommands the summarised turns ran (latest last):\n" + cmds)
	}
	if plan := lastPlan(old); plan != "" && lastPlan(kept) == "" {
		b.WriteString("\nThe plan as last set with update_plan:\n" + plan)
	}
	if req := lastRequest(old, reinjected); req != "" {
		b.WriteString("\nThe user's latest request in the summarised turns, verbatim:\n<request>\n" + req + "\n</request>\n")
	}
	return llm.Text(llm.RoleUser, b.String())
}

// filesTouched lists the path arguments of the tool calls in h, one line
// per tool and path, in first-use order.
func filesTouched(h []llm.Message) string {
	seen := map[string]bool{}
	var lines []string
	for _, m := range h {
		for _, p := range m.Content {
			if p.Type != llm.PartToolUse {
				continue
			}
			var args struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(p.Input, &args) != nil || args.Path == "" {
				continue
			}
			line := fmt.Sprintf("- %s: %s", p.ToolName, args.Path)
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// commandsShown bounds the commands listed in a head.
const commandsShown = 20

// commandsRun lists the run_command calls in h, each once at its latest
// use, the most recent commandsShown of them.
func commandsRun(h []llm.Message) string {
	var cmds []string
	for _, m := range h {
		for _, p := range m.Content {
			var args struct {
				Command string `json:"command"`
			}
			if p.Type != llm.PartToolUse || p.ToolName != "run_command" || json.Unmarshal(p.Input, &args) != nil || args.Command == "" {
				continue
			}
			line := "- " + strings.ReplaceAll(args.Command, "\n", " ")
			if len(line) > 300 {
				line = cutValid(line[:300]) + "…"
			}
			cmds = append(slices.DeleteFunc(cmds, func(c string) bool { return c == line }), line)
		}
	}
	if len(cmds) > commandsShown {
		cmds = cmds[len(cmds)-commandsShown:]
	}
	if len(cmds) == 0 {
		return ""
	}
	return strings.Join(cmds, "\n") + "\n"
}

// lastPlan renders the latest update_plan call's plan in h.
func lastPlan(h []llm.Message) string {
	for i := len(h) - 1; i >= 0; i-- {
		for j := len(h[i].Content) - 1; j >= 0; j-- {
			p := h[i].Content[j]
			if p.Type != llm.PartToolUse || p.ToolName != "update_plan" {
				continue
			}
			var args struct {
				Plan []struct {
					Content  string `json:"content"`
					Status   string `json:"status"`
					Priority string `json:"priority"`
				} `json:"plan"`
			}
			if json.Unmarshal(p.Input, &args) != nil {
				continue
			}
			var b strings.Builder
			for _, e := range args.Plan {
				fmt.Fprintf(&b, "- [%s] %s", e.Status, e.Content)
				if e.Priority != "" {
					fmt.Fprintf(&b, " (priority %s)", e.Priority)
				}
				b.WriteString("\n")
			}
			return b.String()
		}
	}
	return ""
}

// lastRequest is the text of the latest user message in h that the user
// wrote: not a tool result, not a re-injected part, not an earlier head.
func lastRequest(h []llm.Message, reinjected func(llm.Part) bool) string {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role != llm.RoleUser {
			continue
		}
		var texts []string
		for _, p := range h[i].Content {
			if p.Type != llm.PartText || (reinjected != nil && reinjected(p)) || strings.HasPrefix(p.Text, HeadPrefix) {
				continue
			}
			texts = append(texts, p.Text)
		}
		if len(texts) > 0 {
			s := strings.Join(texts, "\n")
			if len(s) > requestCap {
				s = cutValid(s[:requestCap]) + " […]"
			}
			return s
		}
	}
	return ""
}
