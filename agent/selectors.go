package agent

import (
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
)

// Selector ids: the session settings editors show as pickers (ACP's
// session config options, LSP's tandem/configOptions).
const (
	SelectMode    = "mode"
	SelectModel   = "model"
	SelectThought = "thought_level"
)

// ErrUnknownSelector is returned for a selector id the session does not have.
var ErrUnknownSelector = errors.New("unknown config option")

// Selector is one picker: its id (also its category), its name, the
// current value and the values offered.
type Selector struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Current     string          `json:"currentValue"`
	Options     []SelectorValue `json:"options"`
	// Toggle marks a switch (see Toggles): its values are on and off, and
	// an editor that has switches may show it as one.
	Toggle bool `json:"toggle,omitempty"`
}

// SelectorValue is one value a selector offers.
type SelectorValue struct {
	Value       string `json:"value"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

var thoughtNames = map[llm.Effort]string{llm.EffortOff: "Off", llm.EffortLow: "Low", llm.EffortMedium: "Medium", llm.EffortHigh: "High"}

// Selectors lists the session's pickers: its mode; its model, when the
// agent offers any or the session has one (the session's own model is
// listed first if the agent does not offer it); its thought level,
// while the model is one that reasons; and its switches (Toggles).
func (s *Session) Selectors() []Selector {
	mode := Selector{ID: SelectMode, Name: "Mode", Current: string(s.Mode())}
	for _, m := range s.Modes() {
		mode.Options = append(mode.Options, SelectorValue{Value: string(m.ID), Name: m.Name, Description: m.Description})
	}
	out := []Selector{mode}

	model := Selector{ID: SelectModel, Name: "Model", Current: s.Model()}
	seen := false
	for _, id := range s.a.Models() {
		model.Options = append(model.Options, SelectorValue{Value: id, Name: id})
		seen = seen || id == model.Current
	}
	if model.Current != "" && !seen {
		model.Options = append([]SelectorValue{{Value: model.Current, Name: model.Current}}, model.Options...)
	}
	if len(model.Options) > 0 {
		out = append(out, model)
	}

	if effort, reasoning := s.Effort(); reasoning {
		if effort == "" {
			effort = llm.EffortOff
		}
		th := Selector{ID: SelectThought, Name: "Thinking", Current: string(effort)}
		for _, e := range llm.Efforts() {
			th.Options = append(th.Options, SelectorValue{Value: string(e), Name: thoughtNames[e]})
		}
		out = append(out, th)
	}
	return append(out, s.toggleSelectors()...)
}

// Select sets selector id to value. Errors match ErrUnknownSelector,
// ErrUnknownMode, ErrUnknownModel or ErrUnknownEffort.
func (s *Session) Select(id, value string) error {
	switch id {
	case SelectMode:
		return s.SetMode(Mode(value))
	case SelectModel:
		return s.SetModel(value)
	case SelectThought:
		return s.SetEffort(llm.Effort(value))
	case ToggleSandbox, ToggleAutoCompact:
		on, err := parseToggle(id, value)
		if err != nil {
			return err
		}
		return s.SetToggle(id, on)
	}
	return fmt.Errorf("%w %q: use %s, %s, %s or %s", ErrUnknownSelector, id, SelectMode, SelectModel, SelectThought, s.toggleIDs())
}
