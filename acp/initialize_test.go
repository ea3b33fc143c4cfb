package acp

import (
	"encoding/json"
	"fmt"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// sdkInitializeResponse is initialize's answer built from the SDK's types,
// the reference initializeResult's hand-written JSON must match.
func sdkInitializeResponse(version string, terminalAuth bool) sdk.InitializeResponse {
	envVar := func(id, name, variable, link string) sdk.AuthMethod {
		desc := fmt.Sprintf("Set %s in the environment tandem starts in (or run `tandem login`), then retry.", variable)
		return sdk.AuthMethod{EnvVar: &sdk.AuthMethodEnvVarInline{
			Id: id, Name: name, Type: "env_var", Description: &desc, Link: &link,
			Vars: []sdk.AuthEnvVar{{Name: variable, Secret: true}},
		}}
	}
	methods := []sdk.AuthMethod{
		envVar(authAnthropic, "Anthropic API key", config.AnthropicKeyEnv, "https://console.anthropic.com/settings/keys"),
		envVar(authOpenAI, "OpenAI API key", config.OpenAIKeyEnv, "https://platform.openai.com/api-keys"),
	}
	if terminalAuth {
		desc := "Enter a key in a terminal; tandem stores it in $TANDEM_HOME/credentials.json (mode 0600)."
		methods = append(methods, sdk.AuthMethod{Terminal: &sdk.AuthMethodTerminalInline{
			Id: authLogin, Name: "Log in with tandem", Type: "terminal", Description: &desc, Args: []string{"login"},
		}})
	}
	title := "Tandem"
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersion(sdk.ProtocolVersionNumber),
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List:                  &sdk.SessionListCapabilities{},
				Resume:                &sdk.SessionResumeCapabilities{},
				Close:                 &sdk.SessionCloseCapabilities{},
				Fork:                  &sdk.SessionForkCapabilities{},
				Delete:                &sdk.SessionDeleteCapabilities{},
				AdditionalDirectories: &sdk.SessionAdditionalDirectoriesCapabilities{},
			},
		},
		AgentInfo: &sdk.Implementation{Name: "tandem", Title: &title, Version: version,
			Meta: map[string]any{"tandem": map[string]any{"sandbox": sandbox.Summary()}}},
		AuthMethods: methods,
	}
}

// The answer initialize writes as text is byte for byte what the SDK's
// types encode, with and without the terminal login, whatever the version.
func TestInitializeMatchesSDK(t *testing.T) {
	for _, version := range []string{"dev", `v1.2.3-"quoted"\<&>`} {
		for _, terminal := range []bool{false, true} {
			got, err := initializeResult(version, terminal)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(sdkInitializeResponse(version, terminal))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("version %q, terminal auth %v:\n got %s\nwant %s", version, terminal, got, want)
			}
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
