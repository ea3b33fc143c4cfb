package acp

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// withoutKeys is env minus every provider key and base URL but Anthropic's
// (pointing at the fake model), so tandem starts unconfigured.
func withoutKeys(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(name, "_API_KEY") || name == "OPENAI_BASE_URL" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// TestLoginFlow: with no key, initialize offers the login methods, a prompt
// is answered auth_required, authenticate says the same until `tandem login`
// stores a key; then authenticate succeeds and the same session's prompt
// reaches the model. The key never shows in tandem's log.
func TestLoginFlow(t *testing.T) {
	const key = "sk-ant-login-test-7f3a"
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"hello after login"}})
	home := t.TempDir()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic))), "TANDEM_LOG=debug")
	ed := newEditor(t)
	p := startCmd(t, cmd, srv, home, ed)

	initRes, err := p.conn.Initialize(ctxT(t), sdk.InitializeRequest{
		ProtocolVersion:    sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Auth: sdk.AuthCapabilities{Terminal: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	validate(t, acpStableSchema(t, "InitializeResponse"), "initialize response", initRes)
	var ids []string
	for _, m := range initRes.AuthMethods {
		switch {
		case m.Agent != nil:
			ids = append(ids, m.Agent.Id)
		case m.Terminal != nil:
			ids = append(ids, m.Terminal.Id+" "+strings.Join(m.Terminal.Args, " "))
		default:
			ids = append(ids, "a method of another type")
		}
	}
	if got := strings.Join(ids, ", "); got != "anthropic-api-key, openai-api-key, tandem-login login" {
		t.Errorf("auth methods: %s", got)
	}

	sid := p.newSession(t, workspace(t, nil))
	_, err = p.prompt(t, sid, "hi")
	assertAuthRequired(t, "prompt without a key", err)
	_, err = p.conn.Authenticate(ctxT(t), sdk.AuthenticateRequest{MethodId: "anthropic-api-key"})
	assertAuthRequired(t, "authenticate without a key", err)
	if _, err := p.conn.Authenticate(ctxT(t), sdk.AuthenticateRequest{MethodId: "password"}); err == nil {
		t.Error("an unknown method was accepted")
	}

	login := exec.Command(testenv.Tandem(t), "login", "--provider", "anthropic")
	login.Env = append(withoutKeys(os.Environ()), "TANDEM_HOME="+home)
	login.Stdin = strings.NewReader(key + "\n")
	if out, err := login.CombinedOutput(); err != nil || strings.Contains(string(out), key) {
		t.Fatalf("tandem login: %v\n%s", err, out)
	}
	if st, err := os.Stat(filepath.Join(home, "credentials.json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", st, err)
	}

	if _, err := p.conn.Authenticate(ctxT(t), sdk.AuthenticateRequest{MethodId: "anthropic-api-key"}); err != nil {
		t.Fatalf("authenticate after login: %v", err)
	}
	if r, err := p.prompt(t, sid, "hi again"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after login: %q, %v", r, err)
	}
	if got := ed.agentText(sid); got != "hello after login" {
		t.Errorf("agent text %q", got)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model == "" {
		t.Errorf("requests after login: %+v, want one naming the default model", reqs)
	}
	p.closeAndWait(t)
	if strings.Contains(p.stderr.String(), key) {
		t.Error("the key reached tandem's log")
	}
}

func assertAuthRequired(t *testing.T, what string, err error) {
	t.Helper()
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32000 || !strings.Contains(re.Message, "tandem login") {
		t.Errorf("%s: %v, want auth_required (-32000) naming tandem login", what, err)
	}
}

// TestTerminalAuthMeta: a client that asks for the terminal login the way
// editors and the ACP Registry's check did before 1.21
// (`_meta["terminal-auth"]: true`, no auth.terminal) gets it as an agent
// method carrying the whole command in _meta, with no `type` the stable
// schema would not allow it; authenticate with it reads the configuration
// again like the key methods (here: still no key).
func TestTerminalAuthMeta(t *testing.T) {
	c := newRawClient(t, nil)
	r := result(t, c.request("1", "initialize", map[string]any{"protocolVersion": 1,
		"clientCapabilities": map[string]any{"_meta": map[string]any{"terminal-auth": true}}}))
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var login map[string]any
	for _, m := range r["authMethods"].([]any) {
		if m := m.(map[string]any); m["id"] == "tandem-login" {
			login = m
		}
	}
	meta, _ := login["_meta"].(map[string]any)
	cmd, _ := meta["terminal-auth"].(map[string]any)
	if _, typed := login["type"]; typed || cmd["command"] != exe || jsonString(cmd["args"]) != `["login"]` || cmd["label"] == nil {
		t.Errorf("the login for _meta[terminal-auth]: %s, want no type and {command: %s, args: [login], label}", jsonString(login), exe)
	}
	if got := errorCode(t, c.request("2", "authenticate", map[string]any{"methodId": "tandem-login"})); got != codeAuthRequired {
		t.Errorf("authenticate with tandem-login and no key: code %d, want auth_required", got)
	}
	// Without either capability there is no login method at all.
	r = result(t, c.request("3", "initialize", initParams()))
	if got := jsonString(r["authMethods"]); strings.Contains(got, "tandem-login") {
		t.Errorf("a client without terminal login is offered it: %s", got)
	}
}

// TestLogout: initialize advertises auth.logout; logout removes the key
// `tandem login` stored, after which the session's prompt is answered
// auth_required, while a key in config.json (which tandem did not write)
// survives a logout and serves the next prompt.
func TestLogout(t *testing.T) {
	const stored, own = "sk-ant-stored-1c9e", "sk-ant-config-5b2d"
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"with the stored key"}}, llmtest.Reply{Text: []string{"with config.json's key"}})
	home := t.TempDir()
	if err := config.SaveKey(home, "anthropic", stored); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = withoutKeys(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic)))
	ed := newEditor(t)
	p := startCmd(t, cmd, srv, home, ed)
	initRes, err := p.conn.Initialize(ctxT(t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	if initRes.AgentCapabilities.Auth.Logout == nil {
		t.Error("initialize does not advertise auth.logout")
	}
	sid := p.newSession(t, workspace(t, nil))
	if r, err := p.prompt(t, sid, "hi"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt with the stored key: %q, %v", r, err)
	}

	if _, err := p.conn.Logout(ctxT(t), sdk.LogoutRequest{}); err != nil {
		t.Fatalf("logout: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "credentials.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("credentials.json after logout: %v, want it gone", err)
	}
	_, err = p.prompt(t, sid, "still there?")
	assertAuthRequired(t, "prompt after logout", err)

	cfgPath := filepath.Join(home, "config.json")
	cfgText := `{"anthropicApiKey": "` + own + `"}`
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := p.conn.Logout(ctxT(t), sdk.LogoutRequest{}); err != nil {
		t.Fatalf("logout with no stored key: %v", err)
	}
	if b, err := os.ReadFile(cfgPath); err != nil || string(b) != cfgText {
		t.Errorf("config.json after logout: %q, %v", b, err)
	}
	if r, err := p.prompt(t, sid, "and now?"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt with config.json's key: %q, %v", r, err)
	}
	var keys []string
	for _, r := range srv.Requests() {
		keys = append(keys, r.Header.Get("X-Api-Key"))
	}
	if got := strings.Join(keys, " "); got != stored+" "+own {
		t.Errorf("keys the model saw: %q, want the stored one, then config.json's", got)
	}
	p.closeAndWait(t)
}
