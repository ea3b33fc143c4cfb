package policy

import (
	"slices"

	"github.com/tandemhq/tandem/agent/tools"
)

// Mode is a session mode, as far as approval goes. agent.Mode spells its
// names with these constants.
type Mode string

const (
	ModeAsk      Mode = "ask"       // read and plan only
	ModeCode     Mode = "code"      // edits, commands and MCP tools ask
	ModeAutoEdit Mode = "auto-edit" // edits inside the workspace run unasked; the rest asks
	ModeFullAuto Mode = "full-auto" // nothing asks but protected paths
)

// Approves reports whether m runs a call of group g without asking, before
// any rule or protected path is considered. Read and plan calls never ask;
// an unknown mode approves nothing else.
func (m Mode) Approves(g tools.Group) bool {
	switch g {
	case tools.GroupRead, tools.GroupPlan:
		return true
	}
	switch m {
	case ModeFullAuto:
		return true
	case ModeAutoEdit:
		return g == tools.GroupEdit
	}
	return false
}

// approving lists the modes that run group g without asking.
func approving(g tools.Group) []Mode {
	all := []Mode{ModeAsk, ModeCode, ModeAutoEdit, ModeFullAuto}
	return slices.DeleteFunc(all, func(m Mode) bool { return !m.Approves(g) })
}
