package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Error codes of JSON-RPC 2.0, and the one LSP and ACP share for a request
// the caller cancelled.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	CodeCancelled      = -32800
)

// Error is a JSON-RPC error object: what a handler returns to answer with
// a specific code, and what Call returns when the peer answered with one.
// Data received from the peer is a json.RawMessage.
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// NewError makes an error response with a formatted message.
func NewError(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Request is an incoming request or notification.
type Request struct {
	ID     ID // zero for a notification
	Method string
	Params json.RawMessage // nil when absent
}

// IsNotification reports whether no response is expected.
func (r *Request) IsNotification() bool { return r.ID.IsZero() }

// message is one parsed frame: a request, a notification or a response.
type message struct {
	id     ID
	method string
	params json.RawMessage
	result json.RawMessage
	err    *Error
}

func (m *message) isResponse() bool { return m.method == "" }

// parse turns one frame into a message. A non-nil *Error is the answer the
// frame deserves (sent with errID) instead of being processed; a frame that
// needs neither (blank line) returns nil, nil.
func parse(frame []byte) (m *message, errID ID, perr *Error) {
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 {
		return nil, ID{}, nil
	}
	if !json.Valid(frame) {
		return nil, nullID, &Error{Code: CodeParseError, Message: "Parse error: the message is not valid JSON"}
	}
	switch frame[0] {
	case '{':
	case '[':
		return nil, nullID, &Error{Code: CodeInvalidRequest, Message: "Invalid request: batches are not supported; send one message at a time"}
	default:
		return nil, nullID, &Error{Code: CodeInvalidRequest, Message: "Invalid request: a message must be a JSON object"}
	}
	// A map keeps member names exact: encoding/json would match "ID" or
	// "Method" to struct fields case-insensitively.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(frame, &fields); err != nil {
		return nil, nullID, &Error{Code: CodeParseError, Message: "Parse error: " + err.Error()}
	}
	m = &message{}
	invalid := func(why string) (*message, ID, *Error) {
		id := m.id
		if id.IsZero() {
			id = nullID
		}
		return nil, id, &Error{Code: CodeInvalidRequest, Message: "Invalid request: " + why}
	}
	if raw, ok := fields["id"]; ok {
		id, ok := parseID(raw)
		if !ok {
			return invalid("the id must be a string (UTF-8), a number or null")
		}
		m.id = id
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if raw, ok := fields["method"]; ok {
		if json.Unmarshal(raw, &m.method) != nil || raw[0] != '"' {
			return invalid("the method must be a string")
		}
		if m.method == "" {
			return invalid("the method name is empty")
		}
		if p, ok := fields["params"]; ok && string(p) != "null" {
			m.params = p
		}
		return m, ID{}, nil
	}
	result, hasResult := fields["result"]
	rawErr, hasErr := fields["error"]
	switch {
	case m.id.IsZero():
		return invalid("a message needs a method (request or notification) or an id (response)")
	case hasResult == hasErr:
		return invalid("a response needs exactly one of result and error")
	case hasErr:
		var e struct {
			Code    *int64          `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if json.Unmarshal(rawErr, &e) != nil || e.Code == nil {
			return invalid("the error of a response must be an object with a numeric code")
		}
		m.err = &Error{Code: *e.Code, Message: e.Message}
		if len(e.Data) > 0 {
			m.err.Data = e.Data
		}
	default:
		m.result = result
	}
	return m, ID{}, nil
}

// peekHeader reads the id and method from the start of a frame whose tail
// was cut off (it was over the inbound cap), with a tokenizer: peers put
// them first in practice; when they are not found, nothing is returned.
func peekHeader(head []byte) (id ID, method string) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ID{}, ""
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return id, method
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return id, method
		}
		switch key {
		case "id":
			if parsed, ok := parseID(v); ok {
				id = parsed
			}
		case "method":
			_ = json.Unmarshal(v, &method)
		}
	}
	return id, method
}
