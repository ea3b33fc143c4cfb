package acp

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// thoughtLevel returns the current value of the thought_level selector,
// or "" when it is not offered.
func thoughtLevel(opts []sdk.SessionConfigOption) string {
	for _, o := range opts {
		if o.Select != nil && o.Select.Id == "thought_level" {
			return string(o.Select.CurrentValue)
		}
	}
	return ""
}

// TestThoughtLevel: a reasoning model gets a thought_level selector; "high"
// reaches Anthropic as a thinking budget on the next request; an unknown
// level is refused; the choice is kept with the session across a load.
func TestThoughtLevel(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"thought hard"}})
	home := t.TempDir()
	ed := newEditor(t)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, true, true)
	dir := workspace(t, nil)
	ns, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := thoughtLevel(ns.ConfigOptions); got != "off" {
		t.Fatalf("thought_level for the default Claude model = %q, want off", got)
	}
	set := func(v string) (sdk.SetSessionConfigOptionResponse, error) {
		return p.conn.SetSessionConfigOption(ctxT(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
			SessionId: ns.SessionId, ConfigId: "thought_level", Value: sdk.SessionConfigValueId(v)}})
	}
	res, err := set("high")
	if err != nil || thoughtLevel(res.ConfigOptions) != "high" {
		t.Fatalf("set high: %v, %+v", err, res)
	}
	var re *sdk.RequestError
	if _, err := set("extreme"); !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("an unknown level: %v", err)
	}
	if _, err := p.prompt(t, ns.SessionId, "think"); err != nil {
		t.Fatal(err)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, `"thinking":{"type":"enabled","budget_tokens":24576}`) {
		t.Errorf("the request does not think hard: %s", body)
	}
	p.closeAndWait(t)

	p2 := startTandem(t, srv, home, newEditor(t))
	p2.initialize(t, true, true)
	ld, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: ns.SessionId, Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil || thoughtLevel(ld.ConfigOptions) != "high" {
		t.Errorf("after load: %v, thought_level %q", err, thoughtLevel(ld.ConfigOptions))
	}
}
