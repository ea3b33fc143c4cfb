package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// sdkInitializeResponse is initialize's answer built from the SDK's types,
// the reference initializeResult's hand-written JSON must match.
func sdkInitializeResponse(t *testing.T, version string, l logins, unstable, nes bool) sdk.InitializeResponse {
	key := func(id, name, variable, link string) sdk.AuthMethod {
		desc := fmt.Sprintf("Set %s (a key from %s) in the environment tandem starts in, or run `tandem login`; then retry.", variable, link)
		return sdk.AuthMethod{Agent: &sdk.AuthMethodAgent{Id: id, Name: name, Description: &desc}}
	}
	methods := []sdk.AuthMethod{
		key(authAnthropic, "Anthropic API key", config.AnthropicKeyEnv, "https://console.anthropic.com/settings/keys"),
		key(authOpenAI, "OpenAI API key", config.OpenAIKeyEnv, "https://platform.openai.com/api-keys"),
	}
	desc := loginDescription
	var meta map[string]any
	if l.terminalMeta {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		meta = map[string]any{"terminal-auth": map[string]any{"command": exe, "args": []string{"login"}, "label": "tandem login"}}
	}
	switch {
	case l.terminal:
		methods = append(methods, sdk.AuthMethod{Terminal: &sdk.AuthMethodTerminalInline{
			Id: authLogin, Name: "Log in with tandem", Type: "terminal", Description: &desc, Args: []string{"login"}, Meta: meta,
		}})
	case l.terminalMeta:
		methods = append(methods, sdk.AuthMethod{Agent: &sdk.AuthMethodAgent{
			Id: authLogin, Name: "Log in with tandem", Description: &desc, Meta: meta,
		}})
	}
	sessions := sdk.SessionCapabilities{
		List:                  &sdk.SessionListCapabilities{},
		Resume:                &sdk.SessionResumeCapabilities{},
		Close:                 &sdk.SessionCloseCapabilities{},
		Delete:                &sdk.SessionDeleteCapabilities{},
		AdditionalDirectories: &sdk.SessionAdditionalDirectoriesCapabilities{},
	}
	if unstable {
		sessions.Fork = &sdk.SessionForkCapabilities{}
	}
	title := "Tandem"
	var nesCaps *sdk.NesCapabilities
	if nes {
		nesCaps = &sdk.NesCapabilities{Events: &sdk.NesEventCapabilities{Document: &sdk.NesDocumentEventCapabilities{
			DidOpen: &sdk.NesDocumentDidOpenCapabilities{}, DidChange: &sdk.NesDocumentDidChangeCapabilities{SyncKind: "incremental"},
			DidClose: &sdk.NesDocumentDidCloseCapabilities{}, DidSave: &sdk.NesDocumentDidSaveCapabilities{},
			DidFocus: &sdk.NesDocumentDidFocusCapabilities{},
		}}}
	}
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersion(sdk.ProtocolVersionNumber),
		AgentCapabilities: sdk.AgentCapabilities{
			Meta: map[string]any{"claudeCode": map[string]any{"promptQueueing": true},
				"tandem": map[string]any{"promptQueueing": true}},
			LoadSession:         true,
			PromptCapabilities:  sdk.PromptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:     sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sessions,
			Auth:                sdk.AgentAuthCapabilities{Logout: &sdk.LogoutCapabilities{}},
			Nes:                 nesCaps,
		},
		AgentInfo: &sdk.Implementation{Name: "tandem", Title: &title, Version: version,
			Meta: map[string]any{"tandem": map[string]any{"sandbox": sandbox.Summary()}}},
		AuthMethods: methods,
	}
}

// The answer initialize writes as text is byte for byte what the SDK's
// types encode, for every kind of terminal login and with and without the
// unstable parts, whatever the version.
func TestInitializeMatchesSDK(t *testing.T) {
	for _, version := range []string{"dev", `v1.2.3-"quoted"\<&>`} {
		for _, l := range []logins{{}, {terminal: true}, {terminalMeta: true}, {terminal: true, terminalMeta: true}} {
			for _, c := range []struct{ unstable, nes bool }{{false, false}, {true, false}, {true, true}} {
				got, err := initializeResult(version, l, c.unstable, c.nes)
				if err != nil {
					t.Fatal(err)
				}
				want, err := json.Marshal(sdkInitializeResponse(t, version, l, c.unstable, c.nes))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Errorf("version %q, logins %+v, %+v:\n got %s\nwant %s", version, l, c, got, want)
				}
			}
		}
	}
}

// tandem's list of the capabilities that opt a client into the unstable
// schema is the vendored schema's, and a client opts in by sending any of
// them, not by sending null or only stable ones.
func TestUnstableClientCapsMatchSchema(t *testing.T) {
	if got, want := unstableClientCaps(), loadWireSchema(t).unstableClientCaps(); !slices.Equal(got, want) {
		t.Errorf("unstableClientCaps() = %v; the schema's unstable-only client capabilities are %v", got, want)
	}
	for caps, want := range map[string]bool{
		``:    false,
		`"x"`: false,
		`{}`:  false,
		`{"fs":{"readTextFile":true},"auth":{"terminal":true},"_meta":{"plan":{}}}`: false,
		`{"plan":null}`:                    false,
		`{"session":{"configOptions":{}}}`: false,
		`{"session":5}`:                    false,
		`{"plan":{}}`:                      true,
		`{"positionEncodings":["utf-16"]}`: true,
		`{"session":{"compaction":{}}}`:    true,
	} {
		if got := optsIntoUnstable(json.RawMessage(caps)); got != want {
			t.Errorf("clientCapabilities %s opt in: %v, want %v", caps, got, want)
		}
	}
}

// Capabilities that do not fit the protocol's types are refused: at
// initialize when the answer depends on them (auth) or they are not an
// object, else by the first request that opens a session.
func TestInitializeBadCapabilities(t *testing.T) {
	c := newRawClient(t, nil)
	for _, caps := range []any{"x", map[string]any{"auth": 5}, map[string]any{"auth": map[string]any{"terminal": "yes"}}} {
		resp := c.request("bad", "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps})
		if got := errorCode(t, resp); got != -32602 {
			t.Errorf("initialize with clientCapabilities %v: code %d, want -32602", caps, got)
		}
	}
	result(t, c.request("1", "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"fs": 5}}))
	newSession := map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}
	resp := c.request("2", "session/new", newSession)
	if got := errorCode(t, resp); got != -32602 {
		t.Fatalf("session/new after initialize sent fs: 5: code %d, want -32602 (%v)", got, resp)
	}
	if msg := resp["error"].(map[string]any)["message"].(string); !contains(msg, "clientCapabilities") {
		t.Errorf("the error does not name clientCapabilities: %s", msg)
	}
	// A new initialize with good capabilities replaces the bad ones.
	result(t, c.request("3", "initialize", initParams()))
	result(t, c.request("4", "session/new", newSession))
}
