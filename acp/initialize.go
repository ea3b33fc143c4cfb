package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// Initialize handles initialize. It answers from constants and the client's
// capabilities alone: no disk, no network, no model.
func (s *server) Initialize(ctx context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.capsMu.Lock()
	s.caps = p.ClientCapabilities
	s.capsMu.Unlock()
	info := s.info
	return sdk.InitializeResponse{
		// tandem speaks version 1; a client asking for more gets 1 and decides.
		ProtocolVersion: sdk.ProtocolVersion(sdk.ProtocolVersionNumber),
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List:   &sdk.SessionListCapabilities{},
				Resume: &sdk.SessionResumeCapabilities{},
				Close:  &sdk.SessionCloseCapabilities{},
				Fork:   &sdk.SessionForkCapabilities{},
				Delete: &sdk.SessionDeleteCapabilities{},
				// Every root is readable and writable as cwd is (see acp/roots.go).
				AdditionalDirectories: &sdk.SessionAdditionalDirectoriesCapabilities{},
			},
		},
		AgentInfo:   &info,
		AuthMethods: authMethods(p.ClientCapabilities),
	}, nil
}
