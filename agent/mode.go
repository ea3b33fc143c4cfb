package agent

import (
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// Mode decides which tool groups the model sees and which calls ask first.
type Mode string

const (
	ModeAsk      = Mode(policy.ModeAsk)      // read and plan tools only
	ModeCode     = Mode(policy.ModeCode)     // default: edits and commands ask
	ModeAutoEdit = Mode(policy.ModeAutoEdit) // edits inside the workspace approved, commands ask
	ModeFullAuto = Mode(policy.ModeFullAuto) // nothing asks (protected paths still do)
)

// ModeInfo describes a mode to an editor.
type ModeInfo struct {
	ID          Mode   `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Modes lists every mode, in the order editors show them.
func Modes() []ModeInfo {
	return []ModeInfo{
		{ModeAsk, "Ask", "Read and plan only; no edits or commands."},
		{ModeCode, "Code", "Edits and commands ask before they run."},
		{ModeAutoEdit, "Auto-edit", "Edits inside the workspace apply without asking; commands ask."},
		{ModeFullAuto, "Full auto", "Nothing asks, except writes to protected files."},
	}
}

// ModeIDs lists the mode ids in Modes' order. Help texts, errors and the
// CLI flag name modes only through it and the Mode constants.
func ModeIDs() []string {
	var ids []string
	for _, m := range Modes() {
		ids = append(ids, string(m.ID))
	}
	return ids
}

// ModeChoices is the mode ids as a phrase for messages:
// "ask, code, auto-edit or full-auto".
func ModeChoices() string {
	ids := ModeIDs()
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
}

// ParseMode checks a mode id. The empty string is the default mode.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeCode, nil
	}
	for _, m := range Modes() {
		if string(m.ID) == s {
			return m.ID, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q: use %s", s, ModeChoices())
}

// exposes reports whether the mode offers tools of group g to the model.
func (m Mode) exposes(g tools.Group) bool {
	if m == ModeAsk {
		return g == tools.GroupRead || g == tools.GroupPlan
	}
	return true
}
