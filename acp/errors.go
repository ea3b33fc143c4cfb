package acp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
)

// JSON-RPC error codes beyond the SDK's constructors.
const codeResourceNotFound = -32002 // ACP: the named resource (session) does not exist

// invalidParams is an error the client caused by what it sent. The message
// is the human sentence editors show.
func invalidParams(format string, args ...any) *sdk.RequestError {
	msg := fmt.Sprintf(format, args...)
	return &sdk.RequestError{Code: -32602, Message: msg, Data: map[string]string{"error": msg}}
}

// unknownSession answers a request naming a session this connection does
// not have open.
func unknownSession(id sdk.SessionId) *sdk.RequestError {
	msg := fmt.Sprintf("unknown session %q: create it with session/new or open it with session/load or session/resume", string(id))
	return &sdk.RequestError{Code: codeResourceNotFound, Message: msg, Data: map[string]string{"sessionId": string(id)}}
}

// toRequestError maps an agent error to the JSON-RPC error the client sees,
// keeping the agent's sentence as the message (editors show it verbatim).
func toRequestError(err error) error {
	if err == nil {
		return nil
	}
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return re
	}
	code := -32603
	switch {
	case errors.Is(err, agent.ErrInvalidCwd):
		code = -32602
	case errors.Is(err, agent.ErrNoSession):
		code = codeResourceNotFound
	case errors.Is(err, agent.ErrBusy):
		code = -32600
	case errors.Is(err, context.Canceled):
		code = -32800
	}
	return &sdk.RequestError{Code: code, Message: err.Error(), Data: map[string]string{"error": err.Error()}}
}
