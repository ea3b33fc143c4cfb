package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
)

// definitions are a session's modes, subagents and plugin rules, read
// when it starts from the embedded built-ins, the project's folders, the
// user's and the enabled plugins' contributions (Config.Contributions). A
// snapshot is never changed: only a change of plugins replaces it whole
// (Session.RefreshDefinitions), so otherwise the tool list and the task
// tool's description stay byte-stable for the session's life.
type definitions struct {
	modes    modeSet
	agents   []custom.Subagent
	rules    []custom.Rule // plugins' rules, joining the role text of their modes
	problems []error       // files that could not be used, told to the user
}

// defs returns the session's current definitions; not on the actor,
// which reads st.defs.
func (p *customization) current() (d *definitions) {
	s := p.s
	s.read(func() { d = p.defs })
	return d
}

// loadDefinitions reads the modes and agents of a session rooted at root.
// Project folders come before user folders, tandem's own before Claude
// Code's.
func (a *Agent) loadDefinitions(root string) definitions {
	var d definitions
	modeDirs := []string{filepath.Join(root, ".tandem", "modes")}
	agentDirs := []string{filepath.Join(root, ".tandem", "agents"), filepath.Join(root, ".claude", "agents")}
	if a.cfg.Home != "" {
		modeDirs = append(modeDirs, filepath.Join(a.cfg.Home, "modes"))
		agentDirs = append(agentDirs, filepath.Join(a.cfg.Home, "agents"))
	}
	if a.cfg.UserHome != "" {
		agentDirs = append(agentDirs, filepath.Join(a.cfg.UserHome, ".claude", "agents"))
	}
	ms, errs := custom.LoadModes(modeDirs...)
	d.modes = modeSet(ms)
	d.problems = append(d.problems, errs...)
	d.agents, errs = custom.LoadSubagents(builtinToolGroup, agentDirs...)
	d.problems = append(d.problems, errs...)
	if f := a.cfg.Contributions; f != nil {
		d.contribute(f(root))
	}
	return d
}

// contribute adds the plugins' modes (after everyone else's), agents and
// rules. Their names are namespaced, so none can replace another's; a
// name already taken is skipped all the same.
func (d *definitions) contribute(cs []custom.Contribution) {
	c, errs := custom.LoadContributions(cs, builtinToolGroup)
	d.problems = append(d.problems, errs...)
	for _, m := range c.Modes {
		if _, taken := d.modes.find(Mode(m.Slug)); !taken {
			d.modes = append(d.modes, m)
		}
	}
	for _, ag := range c.Agents {
		if !slices.ContainsFunc(d.agents, func(o custom.Subagent) bool { return o.Name == ag.Name }) {
			d.agents = append(d.agents, ag)
		}
	}
	slices.SortStableFunc(d.agents, func(x, y custom.Subagent) int { return strings.Compare(x.Name, y.Name) })
	d.rules = c.Rules
}

// role is what the model is told in mode m: its definition, and its role
// text — the mode's own instructions, then every plugin rule for it.
func (d *definitions) role(m Mode) (custom.Mode, string) {
	def, _ := d.modes.find(m)
	var b strings.Builder
	b.WriteString(def.Instructions)
	for _, r := range d.rules {
		if r.For(string(m)) {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			fmt.Fprintf(&b, "Rules from the plugin %s:\n%s", r.Namespace, r.Text)
		}
	}
	return def, b.String()
}

// builtinToolGroup resolves the names of tandem's built-in tools in an
// agent definition's tools list.
func builtinToolGroup(name string) (string, bool) {
	for _, t := range tools.Builtin() {
		if info := t.Info(); info.Name == name {
			return string(info.Group), true
		}
	}
	return "", false
}

// reportProblems tells the user which definition files were skipped.
func (p *customization) reportProblems(problems []error) {
	s := p.s
	for _, err := range problems {
		s.notice(fmt.Sprintf("custom modes and agents: %v", err))
	}
}

// modeRole returns the reminder that carries the current mode's role
// text (its instructions and the plugins' rules for it), or nil when the
// history already states it. It goes into the next user message, never the
// system prompt, which stays the same bytes for the whole session.
// Switching to a mode without role text, or a plugin taking its rules
// away, says the earlier text no longer applies.
func (t *turnRun) modeRole() []llm.Part {
	s := t.s
	var (
		cur, last Mode
		stated    string
		d         *definitions
	)
	s.read(func() { cur, last, stated, d = s.st.mode, s.st.roleMode, s.st.roleText, s.custom.defs })
	now, text := d.role(cur)
	if cur == last && text == stated {
		return nil
	}
	s.do(t.ctx, func() { s.st.roleMode, s.st.roleText = cur, text })
	switch {
	case text != "":
		return roleParts(now, text)
	case stated != "":
		what := "the role instructions of " + string(last) + " mode no longer apply"
		if cur == last {
			what = "the role instructions and rules stated for it earlier no longer apply"
		}
		text := fmt.Sprintf("<system-reminder>\nThe session is now in %s mode (%s); %s.\n</system-reminder>", now.Name, now.Slug, what)
		return []llm.Part{{Type: llm.PartText, Text: text}}
	}
	return nil
}

// restateRole returns the current mode's role for the head of a history
// whose older turns a summary replaced: the message that stated it may be
// among them.
func (t *turnRun) restateRole() []llm.Part {
	s := t.s
	var cur Mode
	var defs *definitions
	s.read(func() { cur, defs = s.st.mode, s.custom.defs })
	d, text := defs.role(cur)
	s.do(context.WithoutCancel(t.ctx), func() { s.st.roleMode, s.st.roleText = cur, text })
	if text != "" {
		return roleParts(d, text)
	}
	return nil
}

func roleParts(d custom.Mode, role string) []llm.Part {
	text := fmt.Sprintf("<system-reminder>\nThe session is in %s mode (%s). Follow these role instructions until the mode changes:\n\n%s\n</system-reminder>", d.Name, d.Slug, role)
	return []llm.Part{{Type: llm.PartText, Text: text}}
}

// modeModel is the model a request in mode m uses: the mode's own when its
// definition names one, else the session's.
func (d *definitions) modeModel(m Mode, session string) string {
	if d, ok := d.modes.find(m); ok && d.Model != "" {
		return d.Model
	}
	return session
}
