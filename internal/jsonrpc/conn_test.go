package jsonrpc

import (
	"strings"
	"testing"
)

// TestEdgeCases sends one frame per case and checks the exact bytes of the
// answer (or that none came: the probe after it must be next).
func TestEdgeCases(t *testing.T) {
	cases := []struct {
		name, in, want string // want "": no answer
	}{
		{"empty string id", `{"jsonrpc":"2.0","id":"","method":"echo","params":{}}`, `{"jsonrpc":"2.0","id":"","result":{}}`},
		{"escaped string id", `{"jsonrpc":"2.0","id":"a\"b\u0041<&>\u2028","method":"echo","params":{}}`, `{"jsonrpc":"2.0","id":"a\"b\u0041<&>\u2028","result":{}}`},
		{"id beyond 2^31", `{"jsonrpc":"2.0","id":4294967296,"method":"echo","params":{}}`, `{"jsonrpc":"2.0","id":4294967296,"result":{}}`},
		{"id int64 max", `{"jsonrpc":"2.0","id":9223372036854775807,"method":"echo"}`, `{"jsonrpc":"2.0","id":9223372036854775807,"result":null}`},
		{"id beyond int64", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"echo"}`, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":null}`},
		{"fraction id", `{"jsonrpc":"2.0","id":1.50,"method":"echo"}`, `{"jsonrpc":"2.0","id":1.50,"result":null}`},
		{"exponent id", `{"jsonrpc":"2.0","id":-1E400,"method":"echo"}`, `{"jsonrpc":"2.0","id":-1E400,"result":null}`},
		{"unicode string id", `{"jsonrpc":"2.0","id":"é😀\ud83d\ude00","method":"echo"}`, `{"jsonrpc":"2.0","id":"é😀\ud83d\ude00","result":null}`},
		{"id not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"echo\"}", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: the id must be a string (UTF-8), a number or null"}}`},
		{"negative id", `{"jsonrpc":"2.0","id":-7,"method":"echo"}`, `{"jsonrpc":"2.0","id":-7,"result":null}`},
		{"null id request", `{"jsonrpc":"2.0","id":null,"method":"echo","params":[2]}`, `{"jsonrpc":"2.0","id":null,"result":[2]}`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: the id must be a string (UTF-8), a number or null"}}`},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"echo"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: the id must be a string (UTF-8), a number or null"}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":"v","method":"echo"}`, `{"jsonrpc":"2.0","id":"v","error":{"code":-32600,"message":"Invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"missing version", `{"id":8,"method":"echo"}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"numeric version", `{"jsonrpc":2.0,"id":8,"method":"echo"}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":"m","method":5}`, `{"jsonrpc":"2.0","id":"m","error":{"code":-32600,"message":"Invalid request: the method must be a string"}}`},
		{"null method", `{"jsonrpc":"2.0","id":"m","method":null}`, `{"jsonrpc":"2.0","id":"m","error":{"code":-32600,"message":"Invalid request: the method must be a string"}}`},
		{"empty method", `{"jsonrpc":"2.0","id":"e","method":""}`, `{"jsonrpc":"2.0","id":"e","error":{"code":-32600,"message":"Invalid request: the method name is empty"}}`},
		{"no method no id", `{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message needs a method (request or notification) or an id (response)"}}`},
		{"names are case-sensitive", `{"jsonrpc":"2.0","ID":1,"Method":"echo"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message needs a method (request or notification) or an id (response)"}}`},
		{"id without method or result", `{"jsonrpc":"2.0","id":3}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid request: a response needs exactly one of result and error"}}`},
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}`},
		{"not JSON", `hello`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: batches are not supported; send one message at a time"}}`},
		{"empty batch", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: batches are not supported; send one message at a time"}}`},
		{"scalar", `42`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message must be a JSON object"}}`},
		{"null", `null`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message must be a JSON object"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":"u","method":"teleport"}`, `{"jsonrpc":"2.0","id":"u","error":{"code":-32601,"message":"Method not found: \"teleport\""}}`},
		{"unknown notification", `{"jsonrpc":"2.0","method":"teleport"}`, ``},
		{"panicking handler", `{"jsonrpc":"2.0","id":"p","method":"panic"}`, `{"jsonrpc":"2.0","id":"p","error":{"code":-32603,"message":"internal error: the panic handler failed"}}`},
		{"panicking notification", `{"jsonrpc":"2.0","method":"panic"}`, ``},
		{"plain error", `{"jsonrpc":"2.0","id":"f","method":"fail"}`, `{"jsonrpc":"2.0","id":"f","error":{"code":-32603,"message":"plain failure"}}`},
		{"typed params", `{"jsonrpc":"2.0","id":"a","method":"add","params":{"A":2,"B":40}}`, `{"jsonrpc":"2.0","id":"a","result":42}`},
		{"ill-typed params", `{"jsonrpc":"2.0","id":"a","method":"add","params":"two"}`, `{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"invalid params for add: json: cannot unmarshal string into Go value of type struct { A int64; B int64 }"}}`},
		{"stray response", `{"jsonrpc":"2.0","id":99,"result":{}}`, ``},
		{"stray error about our message", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, ``},
		{"bad error object", `{"jsonrpc":"2.0","id":5,"error":"x"}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid request: the error of a response must be an object with a numeric code"}}`},
		{"blank line", `   `, ``},
	}
	for _, f := range []Framing{NewlineDelimited, ContentLength} {
		p := newPeer(t, Options{Framing: f, Handler: testMethods().Handle})
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p.t = t
				p.send(tc.in)
				if tc.want != "" {
					if got := p.next(); got != tc.want {
						t.Errorf("got  %s\nwant %s", got, tc.want)
					}
				}
				p.probe("probe-" + string(rune('a'+i)))
			})
		}
	}
}

func TestInboundCap(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, f := range []Framing{NewlineDelimited, ContentLength} {
		p := newPeer(t, Options{Framing: f, Handler: testMethods().Handle, MaxInbound: 200})
		p.send(`{"jsonrpc":"2.0","id":"big","method":"echo","params":["` + long + `"]}`)
		if got, want := p.next(), `{"jsonrpc":"2.0","id":"big","error":{"code":-32600,"message":"Invalid request: message of 358 bytes exceeds the 200-byte limit"}}`; got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
		p.send(`{"jsonrpc":"2.0","method":"echo","params":["` + long + `"]}`) // notification: dropped
		p.send(`{"params":["` + long + `"],"jsonrpc":"2.0"}`)                 // nothing readable: null id
		if got := p.next(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: message of`) {
			t.Errorf("unreadable oversized frame answered %s", got)
		}
		p.probe("after")
	}
}
