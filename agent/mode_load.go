package agent

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
)

// definitions are a session's modes and subagents, read once when it
// starts from the embedded built-ins, the project's folders and the
// user's. They never change afterwards, so the tool list and the task
// tool's description stay byte-stable for the session's life.
type definitions struct {
	modes    modeSet
	agents   []custom.Subagent
	problems []error // files that could not be used, told to the user at start
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
	return d
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
func (s *Session) reportProblems(problems []error) {
	for _, err := range problems {
		s.notice(fmt.Sprintf("custom modes and agents: %v", err))
	}
}

// modeRole returns the reminder that carries the current mode's role
// instructions, or nil when the history already reflects the mode. It goes
// into the next user message, never the system prompt, which stays the
// same bytes for the whole session. Switching from a mode with
// instructions to one without says the old ones no longer apply.
func (t *turnRun) modeRole() []llm.Part {
	s := t.s
	var cur, last Mode
	s.read(func() { cur, last = s.st.mode, s.st.roleMode })
	if cur == last {
		return nil
	}
	s.do(t.ctx, func() { s.st.roleMode = cur })
	now, _ := s.defs.modes.find(cur)
	before, _ := s.defs.modes.find(last)
	switch {
	case now.Instructions != "":
		return roleParts(now)
	case before.Instructions != "":
		text := fmt.Sprintf("<system-reminder>\nThe session is now in %s mode (%s); the role instructions of %s mode no longer apply.\n</system-reminder>", now.Name, now.Slug, before.Slug)
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
	s.read(func() { cur = s.st.mode })
	s.do(context.WithoutCancel(t.ctx), func() { s.st.roleMode = cur })
	if d, _ := s.defs.modes.find(cur); d.Instructions != "" {
		return roleParts(d)
	}
	return nil
}

func roleParts(d custom.Mode) []llm.Part {
	text := fmt.Sprintf("<system-reminder>\nThe session is in %s mode (%s). Follow these role instructions until the mode changes:\n\n%s\n</system-reminder>", d.Name, d.Slug, d.Instructions)
	return []llm.Part{{Type: llm.PartText, Text: text}}
}

// modeModel is the model a request in mode m uses: the mode's own when its
// definition names one, else the session's.
func (s *Session) modeModel(m Mode, session string) string {
	if d, ok := s.defs.modes.find(m); ok && d.Model != "" {
		return d.Model
	}
	return session
}
