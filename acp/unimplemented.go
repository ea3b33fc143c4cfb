package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// What tandem does not implement, in one place. Methods missing from the
// table in methods.go (the unstable session/fork, session/delete,
// document/*, nes/*, providers/*) are answered "method not found"; the
// stable ones it must answer anyway are here.

// Authenticate handles authenticate. initialize advertises no methods, so a
// client has nothing to choose.
func (s *server) Authenticate(ctx context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, invalidParams("tandem has no authentication methods: set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment tandem starts in")
}

// Logout handles logout: there is no login to end.
func (s *server) Logout(ctx context.Context, p sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	return sdk.LogoutResponse{}, nil
}
