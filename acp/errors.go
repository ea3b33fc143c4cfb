package acp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// JSON-RPC error codes beyond those of package jsonrpc.
const codeResourceNotFound = -32002 // ACP: the named resource (session) does not exist

// invalidParams is an error the client caused by what it sent. The message
// is the human sentence editors show.
func invalidParams(format string, args ...any) *jsonrpc.Error {
	msg := fmt.Sprintf(format, args...)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg, Data: map[string]string{"error": msg}}
}

// unknownSession answers a request naming a session this connection does
// not have open.
func unknownSession(id sdk.SessionId) *jsonrpc.Error {
	msg := fmt.Sprintf("unknown session %q: create it with session/new or open it with session/load or session/resume", string(id))
	return &jsonrpc.Error{Code: codeResourceNotFound, Message: msg, Data: map[string]string{"sessionId": string(id)}}
}

// toRequestError maps an agent error to the JSON-RPC error the client sees,
// keeping the agent's sentence as the message (editors show it verbatim).
func toRequestError(err error) error {
	if err == nil {
		return nil
	}
	var re *jsonrpc.Error
	if errors.As(err, &re) {
		return re
	}
	if errors.Is(err, agent.ErrNotConfigured) {
		return authRequired(err)
	}
	code := int64(jsonrpc.CodeInternalError)
	switch {
	case errors.Is(err, agent.ErrInvalidCwd), errors.Is(err, agent.ErrUnknownMode),
		errors.Is(err, agent.ErrUnknownModel), errors.Is(err, agent.ErrUnknownEffort), errors.Is(err, agent.ErrUnknownSelector),
		errors.Is(err, agent.ErrEmptyTitle):
		code = jsonrpc.CodeInvalidParams
	case errors.Is(err, agent.ErrNoSession):
		code = codeResourceNotFound
	case errors.Is(err, context.Canceled):
		code = jsonrpc.CodeCancelled
	}
	return &jsonrpc.Error{Code: code, Message: err.Error(), Data: map[string]string{"error": err.Error()}}
}
