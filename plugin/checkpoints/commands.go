package checkpoints

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tandemhq/tandem/plugin/sdk"
)

// notCovered is what /undo and /rewind say about changes they cannot see.
const notCovered = "Not covered: files changed by commands (run_command, terminal) or by you; only the agent's file edits are checkpointed."

func commands(st func() *state) []sdk.Command {
	return []sdk.Command{
		{Def: sdk.CommandDef{Name: "undo", Description: "Revert the file edits of the agent's last turn (through the editor)"},
			Run: func(ctx context.Context, h *sdk.Host, p sdk.RunCommandParams) (string, error) {
				return st().undo(ctx, h)
			}},
		{Def: sdk.CommandDef{Name: "rewind", Description: "List checkpoints, or go back to one: files, conversation or both",
			Hint: "<n> [files|conversation|both]"},
			Run: func(ctx context.Context, h *sdk.Host, p sdk.RunCommandParams) (string, error) {
				return st().rewindCommand(ctx, h, p.Arguments)
			}},
		{Def: sdk.CommandDef{Name: "changes", Description: "Show the files the agent changed in this session"},
			Run: func(ctx context.Context, h *sdk.Host, p sdk.RunCommandParams) (string, error) {
				return st().changes(h), nil
			}},
	}
}

func (s *state) undo(ctx context.Context, h *sdk.Host) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.List) == 0 {
		return "Nothing to undo: the agent has not edited a file in this session (or every edit was undone).\n" + notCovered, nil
	}
	c := s.List[len(s.List)-1]
	done, left := s.restore(ctx, h, c.Files, c.Files)
	s.List = s.List[:len(s.List)-1]
	s.commit()
	tell(ctx, h, done)
	out := fmt.Sprintf("Undid checkpoint %d (%s): %s.", c.N, short(c.Prompt), orNone(done))
	if len(left) > 0 {
		out += "\nLeft as they are: " + strings.Join(left, "; ") + "."
	}
	return out + "\nThe conversation is unchanged; /rewind " + strconv.Itoa(c.N) + " conversation takes it back too.\n" + notCovered, nil
}

// restore puts every path of first back as it was there, expecting what
// last left; it returns what was restored and what was not, with why.
func (s *state) restore(ctx context.Context, h *sdk.Host, first, last []*file) (done, left []string) {
	final := map[string]*file{}
	for _, f := range last {
		final[f.Path] = f
	}
	for _, f := range first {
		name := s.rel(h, f.Path)
		p := sdk.ApplyEditParams{Path: f.Path, Content: f.Before, Delete: !f.Existed, Label: "undo: " + name}
		if l := final[f.Path]; l != nil && l.AfterExists {
			after := l.After
			p.Expect = &after
		}
		res, err := h.ApplyEdit(ctx, p)
		switch {
		case err != nil:
			left = append(left, name+" ("+err.Error()+")")
		case !res.Applied:
			left = append(left, name+" ("+res.Reason+")")
		case !f.Existed:
			done = append(done, "deleted "+name)
		default:
			done = append(done, "restored "+name)
		}
	}
	return done, left
}

func (s *state) rewindCommand(ctx context.Context, h *sdk.Host, arg string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	words := strings.Fields(arg)
	if len(words) == 0 {
		return s.list(h), nil
	}
	n, err := strconv.Atoi(words[0])
	what := "both"
	if len(words) > 1 {
		what = words[1]
	}
	i, c := s.find(n)
	if err != nil || c == nil || len(words) > 2 || (what != "files" && what != "conversation" && what != "both") {
		return "Usage: /rewind <n> [files|conversation|both], n one of the checkpoints:\n" + s.list(h), nil
	}
	var out []string
	if what != "conversation" {
		// Each path back to before the earliest of these checkpoints that
		// touched it, expecting what the latest left.
		var first, last []*file
		seen := map[string]bool{}
		for _, cp := range s.List[i:] {
			for _, f := range cp.Files {
				if !seen[f.Path] {
					seen[f.Path] = true
					first = append(first, f)
				}
			}
		}
		for j := len(s.List) - 1; j >= i; j-- {
			last = append(last, s.List[j].Files...)
		}
		last = latest(last)
		done, left := s.restore(ctx, h, first, last)
		if what == "files" {
			tell(ctx, h, done) // the conversation still remembers the edits
		}
		out = append(out, "Files: "+orNone(done)+".")
		if len(left) > 0 {
			out = append(out, "Left as they are: "+strings.Join(left, "; ")+".")
		}
	}
	if what != "files" {
		if err := h.Rewind(ctx, marker(n)); err != nil {
			out = append(out, "The conversation could not go back: "+err.Error()+".")
		} else {
			out = append(out, fmt.Sprintf("The conversation goes back to before checkpoint %d's prompt when this command ends.", n))
		}
	}
	s.List = s.List[:i]
	s.commit()
	return fmt.Sprintf("Rewound to checkpoint %d (%s).\n", n, short(c.Prompt)) + strings.Join(out, "\n") + "\n" + notCovered, nil
}

// latest keeps the first entry per path of files listed newest first.
func latest(fs []*file) []*file {
	seen := map[string]bool{}
	var out []*file
	for _, f := range fs {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f)
		}
	}
	return out
}

func (s *state) list(h *sdk.Host) string {
	if len(s.List) == 0 {
		return "No checkpoints yet: one is made for every turn in which the agent edits files."
	}
	var b strings.Builder
	b.WriteString("Checkpoints (/rewind <n> [files|conversation|both]):\n")
	for _, c := range s.List {
		var names []string
		for _, f := range c.Files {
			names = append(names, s.rel(h, f.Path))
		}
		fmt.Fprintf(&b, "%d. %s: %s\n", c.N, short(c.Prompt), strings.Join(names, ", "))
	}
	return b.String()
}

func (s *state) changes(h *sdk.Host) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	type change struct {
		first, last *file
		turns       []string
	}
	var order []string
	all := map[string]*change{}
	for _, c := range s.List {
		for _, f := range c.Files {
			ch := all[f.Path]
			if ch == nil {
				ch = &change{first: f}
				all[f.Path] = ch
				order = append(order, f.Path)
			}
			ch.last = f
			ch.turns = append(ch.turns, strconv.Itoa(c.N))
		}
	}
	if len(order) == 0 {
		return "The agent has not changed any file in this session (undone changes are not listed).\n" + notCovered
	}
	var b strings.Builder
	b.WriteString("Files the agent changed in this session:\n")
	for _, p := range order {
		ch := all[p]
		verb := "modified"
		switch {
		case !ch.first.Existed && ch.last.AfterExists:
			verb = "created"
		case ch.first.Existed && !ch.last.AfterExists:
			verb = "deleted"
		}
		fmt.Fprintf(&b, "%s %s (checkpoint %s)\n", verb, s.rel(h, p), strings.Join(ch.turns, ", "))
	}
	return b.String() + notCovered
}

// rel shows a path relative to the session root when it is inside.
func (s *state) rel(h *sdk.Host, p string) string {
	if len(h.Init.Roots) > 0 {
		if r, err := filepath.Rel(h.Init.Roots[0], p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return p
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	if s == "" {
		return "no prompt"
	}
	return s
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "nothing to restore"
	}
	return strings.Join(xs, ", ")
}

// tell lets the model know, with the next prompt, that files it edited
// were put back, so it reads them again instead of trusting its memory.
func tell(ctx context.Context, h *sdk.Host, done []string) {
	if len(done) == 0 {
		return
	}
	msg := "<system-reminder>\nThe user reverted your earlier file edits: " + strings.Join(done, ", ") +
		". Those files are as they were before your edits; read them again before changing them.\n</system-reminder>"
	if err := h.Deliver(ctx, msg); err != nil {
		h.Log(ctx, "warn", "could not tell the model about the undo: "+err.Error())
	}
}
