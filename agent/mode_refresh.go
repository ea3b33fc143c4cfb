package agent

import (
	"fmt"
	"reflect"
	"slices"
)

// RefreshDefinitions rereads the session's modes, agents and rules — the
// enabled plugins' contributions among them — and applies what changed:
// editors get the new mode list (a current_mode_update, which ACP follows
// with config_option_update), the task tool its new agents, and the model
// the new role text with the next prompt (never through the system
// prompt). A session whose mode is gone goes back to the default mode,
// code, and the user is told. The plugin runtime calls it when the set of
// enabled plugins changes; when nothing changed it does nothing.
func (s *Session) RefreshDefinitions() {
	old := s.custom.current()
	d := s.a.loadDefinitions(s.root)
	if d.same(old) {
		return
	}
	for _, err := range d.problems {
		if !slices.ContainsFunc(old.problems, func(o error) bool { return o.Error() == err.Error() }) {
			s.notice(fmt.Sprintf("custom modes and agents: %v", err))
		}
	}
	var mode Mode
	if s.change(func() {
		s.custom.defs = &d
		s.custom.addTaskTool()
		s.viewChanged()
		mode = s.st.mode
	}) != nil {
		return // closed
	}
	if _, ok := d.modes.find(mode); !ok {
		s.notice(fmt.Sprintf("The mode %s is no longer available (its plugin was disabled or removed); the session is back in %s mode.", mode, ModeCode))
		if err := s.SetMode(ModeCode); err == nil {
			return // SetMode announced the mode, with the new list
		}
	}
	s.emitLive(Update{Type: CurrentModeUpdate, ModeID: string(mode)})
}

// same reports whether two snapshots define the same modes, agents and
// rules (the files they came from aside).
func (d *definitions) same(o *definitions) bool {
	return reflect.DeepEqual(d.modes, o.modes) && reflect.DeepEqual(d.agents, o.agents) && reflect.DeepEqual(d.rules, o.rules)
}
