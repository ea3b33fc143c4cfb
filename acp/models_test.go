package acp

import (
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// modelValues lists the model selector's values.
func modelValues(opts []sdk.SessionConfigOption) []string {
	var ids []string
	for _, o := range opts {
		if o.Select != nil && o.Select.Id == "model" && o.Select.Options.Ungrouped != nil {
			for _, v := range *o.Select.Options.Ungrouped {
				ids = append(ids, string(v.Value))
			}
		}
	}
	return ids
}

// sessionOffering opens a session once the provider's listing, asked in
// the background after initialize, has arrived (tandem logs it at debug
// level), and returns it; the caller checks what it offers.
func (p *tandemProcess) sessionOffering(t *testing.T, dir string) sdk.NewSessionResponse {
	t.Helper()
	if !p.stderr.Await(10*time.Second, "models discovered") {
		t.Errorf("tandem never logged the provider's models")
	}
	ns, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// TestModelsFromProvider: the model selector offers what the provider's
// models API lists (after the configured default), with the key in
// Anthropic's header; a model nobody offers is refused with the list, by
// set_config_option and by /model.
func TestModelsFromProvider(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeModels("claude-opus-4-5", "claude-haiku-4-5")
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	dir := workspace(t, nil)
	ns := p.sessionOffering(t, dir)
	if got := strings.Join(modelValues(ns.ConfigOptions), ","); got != "claude-sonnet-4-5,claude-opus-4-5,claude-haiku-4-5" {
		t.Fatalf("models offered: %s", got)
	}
	if h := srv.ModelsHeaders(); len(h) == 0 || h[0].Get("x-api-key") != "test" {
		t.Errorf("the models request: %v", h)
	}
	_, err := p.conn.SetSessionConfigOption(ctxT(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: ns.SessionId, ConfigId: "model", Value: "gpt-99"}})
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "claude-haiku-4-5") {
		t.Errorf("an unknown model: %v", err)
	}
	if _, err := p.prompt(t, ns.SessionId, "/model gpt-99"); err != nil {
		t.Fatal(err)
	}
	if got := ed.agentText(ns.SessionId); !strings.Contains(got, `unknown model "gpt-99"`) || !strings.Contains(got, "claude-opus-4-5") {
		t.Errorf("/model gpt-99 said %q", got)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a slash command reached the model")
	}
}
