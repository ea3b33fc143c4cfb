package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// methods is the table of ACP methods tandem answers, each a thin handler
// in the file of its method group. Params are decoded into the SDK's types
// and checked with their Validate methods (-32602 when they do not fit);
// any other method is answered -32601, the unstable ones tandem leaves out
// (providers/*) included.
func (s *server) methods() jsonrpc.Methods {
	return jsonrpc.Methods{
		sdk.AgentMethodInitialize:             jsonrpc.Typed(s.Initialize),
		sdk.AgentMethodAuthenticate:           jsonrpc.Typed(s.Authenticate),
		sdk.AgentMethodLogout:                 jsonrpc.Typed(s.Logout),
		sdk.AgentMethodSessionNew:             jsonrpc.Typed(s.NewSession),
		sdk.AgentMethodSessionLoad:            jsonrpc.Typed(s.LoadSession),
		sdk.AgentMethodSessionResume:          jsonrpc.Typed(s.ResumeSession),
		sdk.AgentMethodSessionList:            jsonrpc.Typed(s.ListSessions),
		sdk.AgentMethodSessionClose:           jsonrpc.Typed(s.CloseSession),
		sdk.AgentMethodSessionPrompt:          jsonrpc.Typed(s.Prompt),
		sdk.AgentMethodSessionCancel:          jsonrpc.Typed(s.Cancel),
		sdk.AgentMethodSessionSetMode:         jsonrpc.Typed(s.SetSessionMode),
		sdk.AgentMethodSessionSetConfigOption: jsonrpc.Typed(s.SetSessionConfigOption),
		sdk.AgentMethodSessionFork:            jsonrpc.Typed(s.ForkSession),
		sdk.AgentMethodSessionDelete:          jsonrpc.Typed(s.DeleteSession),
		methodRenameSession:                   jsonrpc.Typed(s.RenameSession),

		sdk.AgentMethodNesStart:          jsonrpc.Typed(s.StartNes),
		sdk.AgentMethodNesSuggest:        jsonrpc.Typed(s.SuggestNes),
		sdk.AgentMethodNesAccept:         jsonrpc.Typed(s.AcceptNes),
		sdk.AgentMethodNesReject:         jsonrpc.Typed(s.RejectNes),
		sdk.AgentMethodNesClose:          jsonrpc.Typed(s.CloseNes),
		sdk.AgentMethodDocumentDidOpen:   jsonrpc.Typed(s.DidOpenDocument),
		sdk.AgentMethodDocumentDidChange: jsonrpc.Typed(s.DidChangeDocument),
		sdk.AgentMethodDocumentDidClose:  jsonrpc.Typed(s.DidCloseDocument),
		sdk.AgentMethodDocumentDidSave:   jsonrpc.Typed(s.DidSaveDocument),
		sdk.AgentMethodDocumentDidFocus:  jsonrpc.Typed(s.DidFocusDocument),
	}
}

// inline names the methods that run on the connection's read loop, in
// arrival order: session/cancel must act at once and never waits;
// initialize never waits either (constants and the client's capabilities),
// and answering it where it was read spares the editor's first answer a
// hand-over to another goroutine, which at start-up, with the agent still
// being built on the other core, can take as long as the answer itself.
// The document/* notifications run there too, in order, so that a
// nes/suggest read after a didChange sees it; they only update a map.
func inline(method string) bool {
	switch method {
	case sdk.AgentMethodSessionCancel, sdk.AgentMethodInitialize,
		sdk.AgentMethodDocumentDidOpen, sdk.AgentMethodDocumentDidChange, sdk.AgentMethodDocumentDidClose,
		sdk.AgentMethodDocumentDidSave, sdk.AgentMethodDocumentDidFocus:
		return true
	}
	return false
}

// call makes a request to the client and decodes its answer.
func call[R any](ctx context.Context, c *jsonrpc.Conn, method string, params any) (R, error) {
	var r R
	err := c.Call(ctx, method, params, &r)
	return r, err
}
