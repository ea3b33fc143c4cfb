package compact

import (
	"context"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// SummarySystem is the system prompt of a summary request. It is not the
// session's: a summary request is a side request, and the session's own
// prefix is left alone.
const SummarySystem = `You compress a coding session between a user and a coding agent so the agent can continue the work with no other memory of it. You receive a transcript (and, when it came in pieces, the summary of what came before it). Write the summary in these sections, as short as the facts allow, and never invent anything:

## Goal and constraints
What the user wants and every requirement, preference or prohibition they stated.
## Decisions
What was decided and why.
## Files
Every file read, created or changed, with its path and what matters about it.
## Commands
Commands that mattered and their results (failures with the key error lines).
## Open tasks and plan
What is done, what remains, and the next step.

Keep exact paths, names, numbers and error messages. Write only the summary.`

// transcriptCap bounds one part in the transcript: the summary needs what
// an output said, not all of it.
const transcriptCap = 3_000

// summarize summarises old, in pieces when its transcript is longer than
// one request may carry: each piece is summarised together with the
// summary of the pieces before it. A piece the provider still finds too
// long is split in two and tried again.
func summarize(ctx context.Context, old []llm.Message, o Options) (string, int, error) {
	blocks := transcript(old, o.Reinjected)
	budget := max(o.PieceTokens, 512)
	queue := pieces(blocks, o.TextTokens, budget)
	summary, done := "", 0
	for len(queue) > 0 {
		p := queue[0]
		text, err := o.Summarize(ctx, SummarySystem, summaryRequest(summary, p, o.Focus, len(queue) == 1))
		if err != nil {
			if IsOverflow(err) && len(p) > 64 {
				half := len(p) / 2
				queue = append([]string{cutValid(p[:half]), cutValid(p[half:])}, queue[1:]...)
				continue
			}
			return "", done, fmt.Errorf("summarising the conversation: %w", err)
		}
		if strings.TrimSpace(text) == "" {
			return "", done, fmt.Errorf("summarising the conversation: the model returned an empty summary")
		}
		summary = strings.TrimSpace(text)
		queue = queue[1:]
		done++
	}
	return summary, done, nil
}

// summaryRequest is the user message of one summary request.
func summaryRequest(before, piece, focus string, last bool) string {
	var b strings.Builder
	if before != "" {
		b.WriteString("The summary of the conversation so far:\n<summary>\n" + before + "\n</summary>\n\nThe conversation continues:\n")
	}
	b.WriteString("<transcript>\n" + piece + "</transcript>\n\n")
	if before != "" {
		b.WriteString("Write one summary covering both.")
	} else {
		b.WriteString("Summarise this transcript.")
	}
	if !last {
		b.WriteString(" More of the conversation follows later; summarise what is here.")
	}
	if focus != "" {
		b.WriteString("\nThe user asks the summary to keep in particular: " + focus)
	}
	return b.String()
}

// transcript renders messages as text blocks, one per message.
func transcript(h []llm.Message, reinjected func(llm.Part) bool) []string {
	names := map[string]string{}
	var out []string
	for _, m := range h {
		var b strings.Builder
		if m.Role == llm.RoleUser {
			b.WriteString("USER:\n")
		} else {
			b.WriteString("AGENT:\n")
		}
		for _, p := range m.Content {
			if reinjected != nil && reinjected(p) {
				continue
			}
			switch p.Type {
			case llm.PartText:
				b.WriteString(capText(p.Text) + "\n")
			case llm.PartImage:
				b.WriteString("[an image]\n")
			case llm.PartToolUse:
				names[p.ToolCallID] = p.ToolName
				fmt.Fprintf(&b, "[called %s %s]\n", p.ToolName, capText(string(p.Input)))
			case llm.PartToolResult:
				status := "result"
				if p.IsError {
					status = "error"
				}
				fmt.Fprintf(&b, "[%s of %s]\n%s\n", status, names[p.ToolCallID], capText(p.Text))
			}
		}
		out = append(out, b.String())
	}
	return out
}

// capText keeps the head and tail of a long text.
func capText(s string) string {
	if len(s) <= transcriptCap {
		return s
	}
	h := transcriptCap / 2
	return cutValid(s[:h]) + fmt.Sprintf("\n[… %d bytes left out …]\n", len(s)-transcriptCap) + s[len(s)-h:]
}

// cutValid drops a trailing partial UTF-8 sequence.
func cutValid(s string) string {
	return strings.ToValidUTF8(s, "")
}

// pieces groups blocks into pieces of at most budget tokens; a block over
// budget on its own is cut to fit.
func pieces(blocks []string, count func(string) int, budget int) []string {
	var out []string
	var cur strings.Builder
	curTok := 0
	for _, b := range blocks {
		t := count(b)
		if t > budget {
			keep := int(float64(len(b)) * float64(budget) / float64(t) * 0.9)
			b = cutValid(b[:keep]) + "\n[… cut to fit …]\n"
			t = count(b)
		}
		if curTok+t > budget && cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
			curTok = 0
		}
		cur.WriteString(b)
		curTok += t
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
