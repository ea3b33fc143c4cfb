package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// envelope is a message as written. Fields are pre-encoded so a value that
// does not encode is found before anything is queued.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// marshal encodes v without HTML escaping (ids and strings are kept as
// written) and without the encoder's trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// raw encodes v unless it is already JSON; nil stays nil.
func raw(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	return marshal(v)
}

func encodeResponse(id ID, result any, rerr *Error) ([]byte, error) {
	env := envelope{JSONRPC: "2.0", ID: &id, Error: rerr}
	if rerr == nil {
		r, err := raw(result)
		if err != nil {
			return nil, err
		}
		if len(r) == 0 {
			r = json.RawMessage("null")
		}
		env.Result = r
	}
	return marshal(env)
}

func encodeRequest(id *ID, method string, params any) ([]byte, error) {
	p, err := raw(params)
	if err != nil {
		return nil, err
	}
	return marshal(envelope{JSONRPC: "2.0", ID: id, Method: method, Params: p})
}
