package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/pathx"
)

// customization is the session's customization part: its commands and
// skills, its modes, subagents and plugin rules (definitions), and its
// workspace instructions. Its fields other than s belong to the actor;
// instr is lent to the running turn (nil meanwhile).
type customization struct {
	s    *Session
	cmds customState  // commands and skills
	defs *definitions // modes, subagents and rules; replaced whole (mode_refresh.go)
	// skillIndex is the system prompt's skill list, fixed when the
	// session starts.
	skillIndex string
	instr      *instrState
	// scopes and baseline are what the turn last published of the
	// instructions, for front doors.
	scopes   []instructions.Scope
	baseline bool
}

// customState is the session's custom commands and skills. set is
// immutable; a refresh replaces it.
type customState struct {
	set      *custom.Set
	reported bool // set's problems have been shown to the user
	// announced is the skill list the model was told about, "name: description"
	// lines; a refresh that changes it tells the model in the next prompt.
	announced string
	// skillNote is the change to tell the model with the next prompt.
	skillNote string
}

// sources are the folders this session reads commands and skills from.
func (p *customization) sources() []custom.Source {
	s := p.s
	srcs := custom.Sources(custom.Places{Root: s.root, TandemHome: s.a.cfg.Home, UserHome: s.a.cfg.UserHome})
	if f := s.a.cfg.CustomSources; f != nil {
		srcs = append(srcs, f(s.root)...)
	}
	return srcs
}

// inTandemHome reports whether path lies in $TANDEM_HOME, whose commands,
// skills, MCP servers and settings steer every session: protected like
// .tandem/ when a workspace happens to contain it (a session opened in
// the home directory with TANDEM_HOME elsewhere below it).
func (p *customization) inTandemHome(path string) bool {
	s := p.s
	if s.a.cfg.Home == "" {
		return false
	}
	if _, ok := pathx.Within(s.a.cfg.Home, path); ok {
		return true
	}
	real, ok := s.a.realHome()
	if !ok {
		return false
	}
	_, ok = pathx.Within(real, path)
	return ok
}

// realHome is Home with its symlinks resolved, once Home exists; where
// $TANDEM_HOME lives does not change while tandem runs.
func (a *Agent) realHome() (string, bool) {
	a.homeMu.Lock()
	defer a.homeMu.Unlock()
	if a.homeReal == "" {
		real, err := filepath.EvalSymlinks(a.cfg.Home)
		if err != nil {
			return "", false
		}
		a.homeReal = real
	}
	return a.homeReal, true
}

// builtin reports whether name is one of tandem's own slash commands.
func (p *customization) builtin(name string) bool {
	_, ok := p.builtins(nil)[name]
	return ok
}

// load reads the session's commands and skills before the actor
// starts, and freezes the skill list the system prompt carries.
func (p *customization) load() {
	s := p.s
	set := custom.Load(p.sources(), p.builtin)
	p.cmds = customState{set: set, announced: skillLines(set)}
	p.skillIndex = skillIndex(set)
	if len(set.Skills) > 0 {
		s.st.catalog.Add(tools.NewSkill(p.set))
	}
}

// set returns the current commands and skills.
func (p *customization) set() (set *custom.Set) {
	s := p.s
	s.read(func() { set = p.cmds.set })
	return set
}

// refreshCustom runs at the start of every prompt: when the files changed
// it reloads them, tells the editor the new command list and the model the
// new skill list, and reports files that failed. Checking only stats the
// files, so it is cheap enough for every prompt; a watcher would cost a
// goroutine and inotify watches per session (and miss folders created
// later) for a list that matters only when the user sends a prompt.
func (t *turnRun) refreshCustom() {
	s := t.s
	var (
		set      *custom.Set
		reported bool
	)
	s.read(func() { set, reported = s.custom.cmds.set, s.custom.cmds.reported })
	srcs := s.custom.sources()
	changed := !set.Current(srcs)
	if changed {
		set = custom.Load(srcs, s.custom.builtin)
		reported = false
	}
	if !reported {
		for _, p := range set.Problems {
			s.notice(fmt.Sprintf("%s: %v", s.display(p.Path), p.Err))
		}
	}
	if !changed {
		if !reported {
			s.do(context.Background(), func() { s.custom.cmds.reported = true })
		}
		return
	}
	s.do(context.Background(), func() {
		c := &s.custom.cmds
		c.set, c.reported = set, true
		if lines := skillLines(set); lines != c.announced {
			c.skillNote = skillChange(lines)
			c.announced = lines
		}
		if len(set.Skills) > 0 {
			if _, ok := s.st.catalog.Get(tools.SkillName); !ok {
				s.st.catalog.Add(tools.NewSkill(s.custom.set))
				s.viewChanged()
			}
		}
	})
	s.emitLive(Update{Type: AvailableCommandsUpdate, Commands: s.Commands()})
}

// takeSkillNote returns, once, the model-facing note about skills that
// changed since the system prompt listed them.
func (t *turnRun) takeSkillNote() []llm.Part {
	var note string
	t.s.do(context.Background(), func() { note, t.s.custom.cmds.skillNote = t.s.custom.cmds.skillNote, "" })
	if note == "" {
		return nil
	}
	return []llm.Part{{Type: llm.PartText, Text: note}}
}

// customCommands lists the custom commands and the skills a slash can invoke.
func customCommands(set *custom.Set) []Command {
	if set == nil {
		return nil
	}
	var out []Command
	for _, c := range set.Commands {
		if c.Private {
			continue // runs by its name, but is not offered
		}
		cmd := Command{Name: c.Name, Description: fmt.Sprintf("%s (%s)", c.Description, c.Scope)}
		if c.ArgumentHint != "" {
			cmd.Input = &CommandInput{Hint: c.ArgumentHint}
		}
		out = append(out, cmd)
	}
	for _, sk := range set.Skills {
		if _, clash := set.Command(sk.Name); clash || sk.Private {
			continue
		}
		out = append(out, Command{Name: sk.Name, Description: fmt.Sprintf("Use the skill: %s (%s skill)", sk.Description, sk.Scope),
			Input: &CommandInput{Hint: "what to do (optional)"}})
	}
	return out
}

// customRunner finds what runs /name: a custom command, a skill or an
// MCP server's prompt (session_mcpoffers.go), in that order.
func (t *turnRun) customRunner(name string) (func(arg string) (StopReason, error), bool) {
	set := t.s.custom.set()
	if c, ok := set.Command(name); ok {
		return func(arg string) (StopReason, error) { return t.runCommandFile(c, arg) }, true
	}
	if sk, ok := set.Skill(name); ok {
		return func(arg string) (StopReason, error) { return t.invokeSkill(sk, arg) }, true
	}
	if run, ok := t.mcpRunner(name); ok {
		return run, ok
	}
	return t.extRunner(name)
}

// runCommandFile expands a custom command and sends it to the model,
// under the command's model when it names one.
func (t *turnRun) runCommandFile(c custom.Command, arg string) (StopReason, error) {
	text, err := custom.Expand(t.ctx, c.Body, arg, t.s.custom.readMention)
	if err != nil {
		return StopCancelled, nil // Expand fails only when the turn is cancelled
	}
	t.model = c.Model
	return t.converse([]ContentBlock{{Type: "text", Text: text}})
}

// invokeSkill sends a skill the user asked for by name, with the request
// that followed it, to the model.
func (t *turnRun) invokeSkill(sk custom.Skill, arg string) (StopReason, error) {
	md, err := sk.Read()
	if err != nil {
		t.s.say(fmt.Sprintf("The skill %s cannot be read: %v", sk.Name, err))
		return StopEndTurn, nil
	}
	text := fmt.Sprintf("Use the skill %q for this request.\n\n%s", sk.Name, tools.SkillText(sk, md, t.s.root))
	if arg != "" {
		text += "\n\nThe request: " + arg
	}
	return t.converse([]ContentBlock{{Type: "text", Text: text}})
}

// readMention reads a command's @path: resolved against the session root
// like a tool path (escapes refused), then read through the host, so an
// unsaved buffer is what gets included.
func (p *customization) readMention(ctx context.Context, path string) (string, error) {
	s := p.s
	abs, err := tools.Resolve(s.root, path)
	if err != nil {
		if errors.Is(err, tools.ErrPathRefused) {
			return "", errors.New("the path leaves the workspace")
		}
		return "", err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", err
	case err == nil && fi.IsDir():
		return "", errors.New("it is a directory")
	}
	return s.host.ReadFile(ctx, abs)
}

// skillLines is the skill list as the model sees it, one per line.
func skillLines(set *custom.Set) string {
	var b strings.Builder
	for _, sk := range set.Skills {
		fmt.Fprintf(&b, "- %s: %s\n", sk.Name, sk.Description)
	}
	return b.String()
}

// skillIndex is the system prompt's section on skills: fixed for the
// session's life, so the request prefix stays byte-stable.
func skillIndex(set *custom.Set) string {
	lines := skillLines(set)
	if lines == "" {
		return ""
	}
	return "\n\nSkills: folders of instructions for particular tasks. When a task matches a skill's description, load it with the skill tool before you start, then follow it.\n" + strings.TrimRight(lines, "\n")
}

// skillChange tells the model, in the next prompt, how the skills changed.
func skillChange(after string) string {
	if after == "" {
		return "<system-reminder>The skills listed in the system prompt were removed; none is available now.</system-reminder>"
	}
	return "<system-reminder>The skills available changed since the system prompt listed them. They are now:\n" + strings.TrimRight(after, "\n") + "\n</system-reminder>"
}
