package agent

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/tandemhq/tandem/agent/edits"
)

// ExtCommand is a slash command whose code lives outside the agent (a
// plugin's), offered through Pipeline.Commands. Run's text is shown to
// the user; the model does not see the command or its output.
type ExtCommand struct {
	Name string
	// Alias is a plain name the command also answers to (a bundled
	// plugin's, beside its <plugin>:<name>). Listed, the command appears
	// once: under Alias, the name users type, unless a command looked up
	// before it has that name; then under Name, which still reaches it.
	Alias       string
	Description string
	Hint        string
	Run         func(ctx context.Context, arg string) (string, error)
}

// extCommands lists what the Commands contributors offer now.
func (p *customization) extCommands() []ExtCommand {
	s := p.s
	var out []ExtCommand
	for _, f := range s.a.cfg.Pipeline.Commands {
		out = append(out, f(s)...)
	}
	return out
}

// extCommandList lists cs, each once, given the names of the commands
// listed (and looked up) before them.
func extCommandList(cs []ExtCommand, taken map[string]bool) []Command {
	out := make([]Command, 0, len(cs))
	for _, c := range cs {
		name := c.Name
		if c.Alias != "" && !taken[c.Alias] {
			name = c.Alias
		}
		taken[name] = true
		cmd := Command{Name: name, Description: c.Description}
		if c.Hint != "" {
			cmd.Input = &CommandInput{Hint: c.Hint}
		}
		out = append(out, cmd)
	}
	return out
}

// extRunner finds the contributed command called name.
func (t *turnRun) extRunner(name string) (func(arg string) (StopReason, error), bool) {
	for _, c := range t.s.custom.extCommands() {
		if c.Name != name && c.Alias != name {
			continue
		}
		return func(arg string) (StopReason, error) {
			text, err := c.Run(t.ctx, strings.TrimSpace(arg))
			switch {
			case t.ctx.Err() != nil:
				return StopCancelled, nil
			case err != nil:
				text = "/" + name + " failed: " + err.Error()
			}
			if text != "" {
				t.s.say(text)
			}
			return StopEndTurn, nil
		}, true
	}
	return nil, false
}

// CommandsChanged tells the editor the session's command list again, for
// contributors whose commands came or went.
func (s *Session) CommandsChanged() {
	s.emitLive(Update{Type: AvailableCommandsUpdate, Commands: s.Commands()})
}

// RestoreFile sets a file's content (or deletes it) through the host, so
// the editor applies it as its own edit and its undo and review see it.
// expect, when non-nil, is what the file must hold now: a file changed
// since (or missing) is refused, never overwritten. No pipeline seam runs:
// this is not the model's edit. The caller has checked the path may be
// written.
func (s *Session) RestoreFile(ctx context.Context, path, content string, remove bool, expect *string, label string) (edits.Result, error) {
	e := edits.FileEdit{Path: path, New: content, Delete: remove, Label: label}
	old, err := s.host.ReadFile(ctx, path)
	switch {
	case err == nil:
		e.Old = old
	case errors.Is(err, fs.ErrNotExist):
		e.Create = true
	default:
		return edits.Result{}, err
	}
	switch {
	case expect != nil && (e.Create || old != *expect):
		return edits.Result{Reason: "the file changed since; left as it is"}, nil
	case e.Create && remove:
		return edits.Result{Applied: true}, nil // already gone
	case !e.Create && !remove && old == content:
		return edits.Result{Applied: true}, nil // already so
	}
	return s.host.ApplyEdit(ctx, e)
}
