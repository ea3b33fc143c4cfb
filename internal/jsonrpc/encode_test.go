package jsonrpc

import (
	"encoding/json"
	"testing"
)

// Frames are written as encoding/json wrote the envelope: members in one
// order, empty ones left out, Encoded parts copied, a json.RawMessage
// compacted (a newline inside would end a newline-framed message early),
// invalid JSON refused.
func TestEncodeFrames(t *testing.T) {
	id := Int64ID(7)
	str, _ := parseID(json.RawMessage(`"a<b"`))
	for _, c := range []struct {
		name string
		got  func() ([]byte, error)
		want string
	}{
		{"notification", func() ([]byte, error) { return encodeRequest(nil, "session/update", map[string]int{"a": 1}) }, `{"jsonrpc":"2.0","method":"session/update","params":{"a":1}}`},
		{"call", func() ([]byte, error) { return encodeRequest(&id, "m", Encoded(`{"x":"<&>"}`)) }, `{"jsonrpc":"2.0","id":7,"method":"m","params":{"x":"<&>"}}`},
		{"raw compacted", func() ([]byte, error) { return encodeRequest(nil, "m", json.RawMessage("{\n \"x\": [1, 2]\n}")) }, `{"jsonrpc":"2.0","method":"m","params":{"x":[1,2]}}`},
		{"no params", func() ([]byte, error) { return encodeRequest(nil, "m\"q", nil) }, `{"jsonrpc":"2.0","method":"m\"q"}`},
		{"result", func() ([]byte, error) { return encodeResponse(str, "<ok>", nil) }, `{"jsonrpc":"2.0","id":"a<b","result":"<ok>"}`},
		{"null result", func() ([]byte, error) { return encodeResponse(id, nil, nil) }, `{"jsonrpc":"2.0","id":7,"result":null}`},
		{"error", func() ([]byte, error) { return encodeResponse(nullID, nil, &Error{Code: -1, Message: "no"}) }, `{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"no"}}`},
	} {
		b, err := c.got()
		if err != nil || string(b) != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, b, err, c.want)
		}
	}
	if _, err := encodeRequest(nil, "m", json.RawMessage(`{"x":`)); err == nil {
		t.Error("invalid raw params were encoded")
	}
}
