package acp

import (
	"context"
	"fmt"

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

// authMethods lists how a user can give tandem a key: a variable per
// provider the client can set when it starts tandem, and, for clients that
// can run tandem in a terminal, `tandem login`.
func authMethods(caps sdk.ClientCapabilities) []sdk.AuthMethod {
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
	if caps.Auth.Terminal {
		desc := "Enter a key in a terminal; tandem stores it in $TANDEM_HOME/credentials.json (mode 0600)."
		methods = append(methods, sdk.AuthMethod{Terminal: &sdk.AuthMethodTerminalInline{
			Id: authLogin, Name: "Log in with tandem", Type: "terminal", Description: &desc, Args: []string{"login"},
		}})
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
	if err := s.agent.Ready(); err != nil {
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
