package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
)

// Config option ids tandem offers (session/set_config_option).
const (
	configMode    = "mode"
	configModel   = "model"
	configThought = "thought_level"
)

// modeState lists the agent's modes with the session's current one.
func modeState(sess *agent.Session) *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(sess.Mode())}
	for _, m := range sess.Modes() {
		desc := m.Description
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.ID), Name: m.Name, Description: &desc})
	}
	return st
}

// configOptions describes the session's selectors: its mode and, when the
// agent knows any model, its model.
func (s *server) configOptions(sess *agent.Session) []sdk.SessionConfigOption {
	var modes sdk.SessionConfigSelectOptionsUngrouped
	for _, m := range sess.Modes() {
		desc := m.Description
		modes = append(modes, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m.ID), Name: m.Name, Description: &desc})
	}
	opts := []sdk.SessionConfigOption{selectOption(configMode, "Mode", sdk.SessionConfigOptionCategoryMode, string(sess.Mode()), modes)}

	current := sess.Model()
	var models sdk.SessionConfigSelectOptionsUngrouped
	seen := false
	for _, id := range s.agent.Models() {
		models = append(models, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(id), Name: id})
		seen = seen || id == current
	}
	if current != "" && !seen {
		models = append([]sdk.SessionConfigSelectOption{{Value: sdk.SessionConfigValueId(current), Name: current}}, models...)
	}
	if len(models) > 0 {
		opts = append(opts, selectOption(configModel, "Model", sdk.SessionConfigOptionCategoryModel, current, models))
	}
	if o, ok := thoughtOption(sess); ok {
		opts = append(opts, o)
	}
	return opts
}

// thoughtOption is the thought level selector, offered while the session's
// model is one that reasons.
func thoughtOption(sess *agent.Session) (sdk.SessionConfigOption, bool) {
	effort, reasoning := sess.Effort()
	if !reasoning {
		return sdk.SessionConfigOption{}, false
	}
	if effort == "" {
		effort = llm.EffortOff
	}
	var levels sdk.SessionConfigSelectOptionsUngrouped
	for _, e := range llm.Efforts() {
		levels = append(levels, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(e), Name: thoughtNames[e]})
	}
	return selectOption(configThought, "Thinking", sdk.SessionConfigOptionCategoryThoughtLevel, string(effort), levels), true
}

var thoughtNames = map[llm.Effort]string{llm.EffortOff: "Off", llm.EffortLow: "Low", llm.EffortMedium: "Medium", llm.EffortHigh: "High"}

func selectOption(id, name string, cat sdk.SessionConfigOptionCategory, current string, values sdk.SessionConfigSelectOptionsUngrouped) sdk.SessionConfigOption {
	return sdk.SessionConfigOption{Select: &sdk.SessionConfigOptionSelect{
		Id:           sdk.SessionConfigId(id),
		Name:         name,
		Category:     &cat,
		CurrentValue: sdk.SessionConfigValueId(current),
		Options:      sdk.SessionConfigSelectOptions{Ungrouped: &values},
		Type:         "select",
	}}
}

// SetSessionMode handles session/set_mode. The agent sends
// current_mode_update itself; host.Send follows it with config_option_update.
func (s *server) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if err := s.setMode(ss, string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, toRequestError(ss.out.flush(ctx))
}

// SetSessionConfigOption handles session/set_config_option for the mode
// and model selectors; the answer carries every selector's new state.
func (s *server) SetSessionConfigOption(ctx context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	if p.ValueId == nil {
		return sdk.SetSessionConfigOptionResponse{}, invalidParams("tandem's config options are selectors: send a value id, not a boolean")
	}
	v := p.ValueId
	ss, err := s.lookup(v.SessionId)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	switch string(v.ConfigId) {
	case configMode:
		err = s.setMode(ss, string(v.Value))
	case configModel:
		err = s.setModel(ss, string(v.Value))
	case configThought:
		err = toRequestError(ss.sess.SetEffort(llm.Effort(v.Value)))
	default:
		err = invalidParams("unknown config option %q: tandem offers %q, %q and %q", string(v.ConfigId), configMode, configModel, configThought)
	}
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	if err := ss.out.flush(ctx); err != nil {
		return sdk.SetSessionConfigOptionResponse{}, toRequestError(err)
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions(ss.sess)}, nil
}

func (s *server) setMode(ss *session, id string) error {
	return toRequestError(ss.sess.SetMode(agent.Mode(id)))
}

func (s *server) setModel(ss *session, id string) error {
	return toRequestError(ss.sess.SetModel(id))
}

// announceConfig tells the client the selectors changed outside
// session/set_config_option (set_mode, /mode and /model).
func (s *server) announceConfig(ss *session) {
	u := sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{
		ConfigOptions: s.configOptions(ss.sess),
		SessionUpdate: "config_option_update",
	}}
	if err := ss.out.pushValue(u); err != nil {
		s.log.Error("acp: encoding config options", "session", ss.id, "err", err)
	}
}
