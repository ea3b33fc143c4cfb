package agent

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/tandemhq/tandem/internal/redact"
)

// MaxResultBytes caps one tool result the model reads and one text an
// update carries to the editor, unless Config.MaxResultBytes lowers it. It
// stays well under the wire's frame cap (8 MiB by default), so JSON
// escaping and the envelope fit too; a frame that still grows past the cap
// is refused by internal/jsonrpc and the session goes on.
const MaxResultBytes = 1 << 20

// ResultCap is the result cap that fits a wire whose frames carry at most
// frameBytes (0: the default frame): an eighth of a frame, at most
// MaxResultBytes. The eighth leaves room for an update carrying a text
// twice (content and raw output), JSON escaping that can double or
// worse a text, and the envelope.
func ResultCap(frameBytes int) int {
	if frameBytes <= 0 {
		return MaxResultBytes
	}
	return min(MaxResultBytes, frameBytes/8)
}

// clip cuts s to about limit bytes, keeping its head and tail, and says
// in the text what was cut and how to get the rest.
func clip(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	const noteRoom = 400 // the note below, with its numbers, fits in this
	keep := max(limit-noteRoom, 0)
	head, tail := s[:keep/2], s[len(s)-keep/2:]
	for len(head) > 0 && !utf8.RuneStart(s[len(head)]) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s\n\n[tandem cut %d bytes from the middle of this result: it had %d bytes and one result may carry %d. "+
		"To see the rest, read it in parts: read_file with offset and limit, or a command that narrows the output (grep, head, tail, sed -n).]\n\n%s",
		head, len(s)-len(head)-len(tail), len(s), limit, tail)
}

// guardResult is what the model and the editor get of a tool's output:
// secrets hidden, size capped.
func guardResult(r *redact.Redactor, limit int, out string) string {
	return clip(r.String(out), limit)
}

// guardUpdate returns u with secrets hidden and every long text clipped,
// copying what it changes: the caller's values stay untouched.
func guardUpdate(r *redact.Redactor, limit int, u Update) Update {
	text := func(s string) string { return clip(r.String(s), limit) }
	if u.Chunk != nil {
		c := guardBlock(*u.Chunk, text)
		u.Chunk = &c
	}
	if u.Tool != nil {
		tc := *u.Tool
		tc.Title = text(tc.Title)
		tc.RawInput = guardJSON(r, limit, tc.RawInput)
		tc.RawOutput = guardJSON(r, limit, tc.RawOutput)
		if tc.Content != nil {
			tc.Content = make([]ToolContent, len(u.Tool.Content))
			for i, c := range u.Tool.Content {
				if c.Content != nil {
					b := guardBlock(*c.Content, text)
					c.Content = &b
				}
				c.OldText = guardPtr(c.OldText, text)
				c.NewText = guardPtr(c.NewText, text)
				tc.Content[i] = c
			}
		}
		u.Tool = &tc
	}
	if u.Plan != nil {
		plan := make([]PlanEntry, len(u.Plan))
		for i, e := range u.Plan {
			e.Content = text(e.Content)
			plan[i] = e
		}
		u.Plan = plan
	}
	return u
}

func guardBlock(b ContentBlock, text func(string) string) ContentBlock {
	b.Text = text(b.Text)
	if b.Resource != nil {
		res := *b.Resource
		res.Text = text(res.Text)
		b.Resource = &res
	}
	return b
}

func guardPtr(p *string, text func(string) string) *string {
	if p == nil {
		return nil
	}
	s := text(*p)
	return &s
}

// guardJSON hides secrets in raw JSON; one too long for an update is
// replaced by a JSON string saying so, since cutting JSON would break it.
func guardJSON(r *redact.Redactor, limit int, raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	raw = r.Bytes(raw)
	if len(raw) > limit {
		b, _ := json.Marshal(fmt.Sprintf("[tandem left out %d bytes of JSON: one update may carry %d]", len(raw), limit))
		return b
	}
	return raw
}

// guardRequest hides secrets in a permission request's tool call (a diff of
// a .env file, say) and caps its texts, as for updates: the question leaves
// the process too.
func (s *Session) guardRequest(req PermissionRequest) PermissionRequest {
	req.ToolCall = *guardUpdate(s.a.cfg.Redact, s.a.cfg.MaxResultBytes, Update{Tool: &req.ToolCall}).Tool
	return req
}
