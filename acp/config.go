package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
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

// configOptions is the session's selectors as ACP config options: its
// switches as boolean options for a client that shows them, as on/off
// selects for others.
func (s *server) configOptions(sess *agent.Session) []sdk.SessionConfigOption {
	var opts []sdk.SessionConfigOption
	switches := s.showsSwitches()
	for _, sel := range sess.Selectors() {
		if sel.Toggle {
			opts = append(opts, switchOption(sel, switches))
			continue
		}
		var values sdk.SessionConfigSelectOptionsUngrouped
		for _, v := range sel.Options {
			o := sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(v.Value), Name: v.Name}
			if sel.ID == agent.SelectMode {
				desc := v.Description
				o.Description = &desc
			}
			values = append(values, o)
		}
		opts = append(opts, selectOption(sel.ID, sel.Name, sdk.SessionConfigOptionCategory(sel.ID), sel.Current, values))
	}
	return opts
}

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

// switchOption is toggle sel as a boolean option, or as an on/off select
// for a client without switches. Switches have no category of the
// schema's, and the "other" category says nothing, so they carry none.
func switchOption(sel agent.Selector, boolean bool) sdk.SessionConfigOption {
	desc := sel.Description
	if boolean {
		return sdk.SessionConfigOption{Boolean: &sdk.SessionConfigOptionBoolean{
			Id: sdk.SessionConfigId(sel.ID), Name: sel.Name, Description: &desc,
			CurrentValue: sel.Current == agent.ToggleOn, Type: "boolean",
		}}
	}
	var values sdk.SessionConfigSelectOptionsUngrouped
	for _, v := range sel.Options {
		values = append(values, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(v.Value), Name: v.Name})
	}
	return sdk.SessionConfigOption{Select: &sdk.SessionConfigOptionSelect{
		Id: sdk.SessionConfigId(sel.ID), Name: sel.Name, Description: &desc,
		CurrentValue: sdk.SessionConfigValueId(sel.Current),
		Options:      sdk.SessionConfigSelectOptions{Ungrouped: &values}, Type: "select",
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
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption handles session/set_config_option: a value id
// for a selector (a switch's on or off among them), a boolean for a
// switch. A switch's change is echoed as config_option_update, and the
// answer carries every option's new state.
func (s *server) SetSessionConfigOption(ctx context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	var sid sdk.SessionId
	var id sdk.SessionConfigId
	var set func(*agent.Session) error
	switch {
	case p.Boolean != nil:
		b := p.Boolean
		sid, id = b.SessionId, b.ConfigId
		set = func(sess *agent.Session) error { return sess.SetToggle(string(b.ConfigId), b.Value) }
	case p.ValueId != nil:
		v := p.ValueId
		sid, id = v.SessionId, v.ConfigId
		set = func(sess *agent.Session) error { return sess.Select(string(v.ConfigId), string(v.Value)) }
	default:
		return sdk.SetSessionConfigOptionResponse{}, invalidParams("session/set_config_option needs a value")
	}
	ss, err := s.lookup(sid)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	if err := toRequestError(set(ss.sess)); err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	if id == agent.ToggleSandbox || id == agent.ToggleAutoCompact {
		// A switch may be flipped by another view of the session too;
		// the mode's echo comes through Send (current_mode_update).
		s.announceConfig(ss)
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions(ss.sess)}, nil
}

func (s *server) setMode(ss *session, id string) error {
	return toRequestError(ss.sess.SetMode(agent.Mode(id)))
}

// announceConfig tells the client the options changed: after
// session/set_config_option, set_mode, /mode and /model.
func (s *server) announceConfig(ss *session) {
	u := sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{
		ConfigOptions: s.configOptions(ss.sess),
		SessionUpdate: "config_option_update",
	}}
	if err := ss.out.sendValue(u); err != nil {
		s.log.Error("acp: encoding config options", "session", ss.id, "err", err)
	}
}
