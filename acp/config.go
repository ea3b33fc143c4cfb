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

// configOptions is the session's selectors as ACP config options.
func (s *server) configOptions(sess *agent.Session) []sdk.SessionConfigOption {
	var opts []sdk.SessionConfigOption
	for _, sel := range sess.Selectors() {
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
	err = toRequestError(ss.sess.Select(string(v.ConfigId), string(v.Value)))
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions(ss.sess)}, nil
}

func (s *server) setMode(ss *session, id string) error {
	return toRequestError(ss.sess.SetMode(agent.Mode(id)))
}

// announceConfig tells the client the selectors changed outside
// session/set_config_option (set_mode, /mode and /model).
func (s *server) announceConfig(ss *session) {
	u := sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{
		ConfigOptions: s.configOptions(ss.sess),
		SessionUpdate: "config_option_update",
	}}
	if err := ss.out.sendValue(u); err != nil {
		s.log.Error("acp: encoding config options", "session", ss.id, "err", err)
	}
}
