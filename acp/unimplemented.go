package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// What tandem does not implement, in one place. Methods missing from the
// table in methods.go (the unstable document/*, nes/*, providers/*) are answered "method not found"; the
// stable ones it must answer anyway are here.

// Logout handles logout: there is no login to end.
func (s *server) Logout(ctx context.Context, p sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	return sdk.LogoutResponse{}, nil
}
