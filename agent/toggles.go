package agent

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/store"
)

// Toggle ids: the session settings that are on or off. Front doors show
// them as switches where the editor has them (ACP's boolean config
// options) and as an on/off selector otherwise. Thinking is not one: the
// thought_level selector already offers off.
const (
	ToggleSandbox     = "sandbox"
	ToggleAutoCompact = "auto_compact"
)

// The two values of a toggle shown as a selector.
const (
	ToggleOn  = "on"
	ToggleOff = "off"
)

// Toggles are the session's switches that are not at their defaults; the
// zero value is every switch on, so a session stored before they existed
// (and its sidecar's omitted fields) reads as it always behaved.
type Toggles struct {
	// SandboxOff runs the session's commands outside tandem's sandbox; the
	// policy then treats them as unconfined (full-auto asks for them).
	SandboxOff bool
	// AutoCompactOff stops the session compacting before a request by
	// itself; a provider's overflow and /compact still compact.
	AutoCompactOff bool
}

// ErrUnknownToggleValue is returned for a switch's selector value other
// than on or off; it matches ErrUnknownSelector, so front doors answer it
// as a bad parameter.
var ErrUnknownToggleValue = fmt.Errorf("%w value", ErrUnknownSelector)

// toggleSandboxOff is why this session's commands run unconfined when the
// user turned its sandbox off, for the policy's reasons and prompts.
const toggleSandboxOff = "the sandbox is turned off in this session"

// Toggles returns the session's switches.
func (s *Session) Toggles() (t Toggles) {
	s.read(func() { t = s.st.toggles })
	return t
}

// sandboxToggle reports whether this session offers the sandbox switch:
// only where its host confines commands, since elsewhere "on" would
// promise a sandbox the commands do not run in.
func (s *Session) sandboxToggle() bool {
	c := s.confinement
	return c.Known && c.Confined
}

// toggleSelectors lists the session's switches as on/off selectors, after
// the pickers.
func (s *Session) toggleSelectors() []Selector {
	t := s.Toggles()
	var out []Selector
	if s.sandboxToggle() {
		out = append(out, toggleSelector(ToggleSandbox, "Sandbox", "Run commands inside tandem's sandbox. Off: commands run unconfined, and full-auto asks before each one.", !t.SandboxOff))
	}
	out = append(out, toggleSelector(ToggleAutoCompact, "Auto-compact", "Compact the conversation by itself when it nears the context window. Off: only /compact and a provider's overflow compact it.", !t.AutoCompactOff))
	return out
}

func toggleSelector(id, name, desc string, on bool) Selector {
	cur := ToggleOff
	if on {
		cur = ToggleOn
	}
	return Selector{ID: id, Name: name, Description: desc, Toggle: true, Current: cur,
		Options: []SelectorValue{{Value: ToggleOn, Name: "On"}, {Value: ToggleOff, Name: "Off"}}}
}

// parseToggle reads a toggle's selector value.
func parseToggle(id, value string) (bool, error) {
	switch value {
	case ToggleOn:
		return true, nil
	case ToggleOff:
		return false, nil
	}
	return false, fmt.Errorf("%w %q for %s: use %s or %s", ErrUnknownToggleValue, value, id, ToggleOn, ToggleOff)
}

// SetToggle turns switch id on or off for the next request or command; it
// is kept with the session. Errors match ErrUnknownSelector.
func (s *Session) SetToggle(id string, on bool) error {
	if id != ToggleAutoCompact && (id != ToggleSandbox || !s.sandboxToggle()) {
		return fmt.Errorf("%w %q: this session's switches are %s", ErrUnknownSelector, id, s.toggleIDs())
	}
	var meta *store.Meta
	err := s.change(func() {
		t := s.st.toggles
		switch id {
		case ToggleSandbox:
			t.SandboxOff = !on
		case ToggleAutoCompact:
			t.AutoCompactOff = !on
		}
		s.st.toggles = t
		s.viewChanged()
		meta = s.meta()
	})
	if err == nil {
		s.saveMeta(meta)
	}
	return err
}

func (s *Session) toggleIDs() string {
	if s.sandboxToggle() {
		return ToggleSandbox + " and " + ToggleAutoCompact
	}
	return ToggleAutoCompact
}
