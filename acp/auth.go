package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// codeAuthRequired is ACP's auth_required: clients answer it with their
// login UI, built from the methods initialize advertised.
const codeAuthRequired = -32000

// Authentication methods. Keys live in the environment, config.json or the
// credentials file `tandem login` writes; tandem never receives a key over
// the protocol.
const (
	authAnthropic = "anthropic-api-key"
	authOpenAI    = "openai-api-key"
	authLogin     = "tandem-login"
)

// logins is which terminal logins a client can run (loginCaps).
type logins struct {
	terminal     bool // auth.terminal: the stable `terminal` method
	terminalMeta bool // _meta["terminal-auth"]: the command in the method's _meta
}

// loginDescription is the login method's description.
const loginDescription = "Enter a key in a terminal; tandem stores it in $TANDEM_HOME/credentials.json (mode 0600)."

// authMethods lists, as JSON, how a user can give tandem a key, in the
// method types ACP 1.21 defines (its env_var type is gone, from the
// unstable schema too): for each provider an `agent` method, whose
// authenticate makes tandem read its configuration again; and `tandem
// login`, for a client that can run tandem in a terminal, as the stable
// `terminal` method (args appended to tandem's own command line) and, for
// the clients that ask with _meta["terminal-auth"], the whole command in
// the method's _meta as they expect it. A client that can do neither gets
// no login method, as the schema requires. The text goes out as written,
// keys in order; TestInitializeMatchesSDK holds it equal to what the SDK's
// AuthMethod types encode.
func authMethods(l logins) (string, error) {
	key := func(id, name, variable, link string) string {
		return `{"description":"Set ` + variable + ` (a key from ` + link + `) in the environment tandem starts in, or run ` +
			"`tandem login`" + `; then retry.","id":"` + id + `","name":"` + name + `"}`
	}
	methods := key(authAnthropic, "Anthropic API key", config.AnthropicKeyEnv, "https://console.anthropic.com/settings/keys") + "," +
		key(authOpenAI, "OpenAI API key", config.OpenAIKeyEnv, "https://platform.openai.com/api-keys")
	if !l.terminal && !l.terminalMeta {
		return methods, nil
	}
	methods += `,{`
	if l.terminalMeta {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("naming tandem's executable for the terminal login: %w", err)
		}
		command, err := json.Marshal(exe)
		if err != nil {
			return "", err
		}
		methods += `"_meta":{"terminal-auth":{"args":["login"],"command":` + string(command) + `,"label":"tandem login"}},`
	}
	if l.terminal {
		methods += `"args":["login"],`
	}
	methods += `"description":"` + loginDescription + `","id":"` + authLogin + `","name":"Log in with tandem"`
	if l.terminal {
		methods += `,"type":"terminal"`
	}
	return methods + `}`, nil
}

// Authenticate handles authenticate. Every method ends the same way: tandem
// reads its configuration again and answers whether a model is reachable
// now, so the client's retry either works or gets the reason. That holds
// for the login too: a client that knows it only from _meta sees an
// `agent` method, which the schema says goes through authenticate, and
// may call it once the command in a terminal is done.
func (s *server) Authenticate(ctx context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	switch p.MethodId {
	case authAnthropic, authOpenAI, authLogin:
	default:
		return sdk.AuthenticateResponse{}, invalidParams("unknown authentication method %q: use %s, %s or %s", p.MethodId, authAnthropic, authOpenAI, authLogin)
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.AuthenticateResponse{}, err
	}
	if err := a.Ready(); err != nil {
		return sdk.AuthenticateResponse{}, toRequestError(err)
	}
	return sdk.AuthenticateResponse{}, nil
}

// Logout handles logout (advertised as agentCapabilities.auth.logout): it
// removes the keys `tandem login` stored, never the environment's or
// config.json's, which tandem did not write; a prompt after it answers
// auth_required unless one of those is left.
func (s *server) Logout(ctx context.Context, p sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	a, err := s.agentFor(ctx)
	if err != nil {
		return sdk.LogoutResponse{}, err
	}
	if err := a.Logout(); err != nil {
		return sdk.LogoutResponse{}, toRequestError(err)
	}
	return sdk.LogoutResponse{}, nil
}

// authRequired is the auth_required answer for err, a missing key
// (agent.ErrNotConfigured); toRequestError picks it.
func authRequired(err error) *jsonrpc.Error {
	msg := "Authentication required: " + err.Error() + ", or run `tandem login`"
	return &jsonrpc.Error{Code: codeAuthRequired, Message: msg, Data: map[string]string{"error": msg}}
}
