package acp

import (
	"context"

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

// authMethods lists, as JSON, how a user can give tandem a key: a variable
// per provider the client can set when it starts tandem, and, for clients
// that can run tandem in a terminal, `tandem login`. The text
// goes out as written; TestInitializeMatchesSDK holds it equal to what the
// SDK's AuthMethod types encode.
func authMethods(terminal bool) string {
	envVar := func(id, name, variable, link string) string {
		return `{"description":"Set ` + variable + " in the environment tandem starts in (or run `tandem login`), then retry." +
			`","id":"` + id + `","link":"` + link + `","name":"` + name + `","type":"env_var",` +
			`"vars":[{"name":"` + variable + `","secret":true}]}`
	}
	methods := envVar(authAnthropic, "Anthropic API key", config.AnthropicKeyEnv, "https://console.anthropic.com/settings/keys") + "," +
		envVar(authOpenAI, "OpenAI API key", config.OpenAIKeyEnv, "https://platform.openai.com/api-keys")
	if terminal {
		methods += `,{"args":["login"],"description":"Enter a key in a terminal; tandem stores it in $TANDEM_HOME/credentials.json (mode 0600).",` +
			`"id":"` + authLogin + `","name":"Log in with tandem","type":"terminal"}`
	}
	return methods
}

// Authenticate handles authenticate. Every method ends the same way: tandem
// reads its configuration again and answers whether a model is reachable
// now, so the client's retry either works or gets the reason.
func (s *server) Authenticate(ctx context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	switch p.MethodId {
	case authAnthropic, authOpenAI:
	case authLogin:
		return sdk.AuthenticateResponse{}, invalidParams("%s runs in a terminal (`tandem login`); it is not passed to authenticate", authLogin)
	default:
		return sdk.AuthenticateResponse{}, invalidParams("unknown authentication method %q: use %s or %s", p.MethodId, authAnthropic, authOpenAI)
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

// authRequired is the auth_required answer for err, a missing key
// (agent.ErrNotConfigured); toRequestError picks it.
func authRequired(err error) *jsonrpc.Error {
	msg := "Authentication required: " + err.Error() + ", or run `tandem login`"
	return &jsonrpc.Error{Code: codeAuthRequired, Message: msg, Data: map[string]string{"error": msg}}
}
