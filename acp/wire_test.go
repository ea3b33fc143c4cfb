package acp

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// pumpLines runs the wire's reader over input with a small line limit and
// returns what reached the SDK and what went back to the client.
func pumpLines(t *testing.T, maxLine int, input string) (toSDK, toClient string) {
	t.Helper()
	var client bytes.Buffer
	w := newWire(&client, slog.New(slog.DiscardHandler))
	w.maxLine = maxLine
	r, pw := io.Pipe()
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	w.pump(strings.NewReader(input), pw)
	return string(<-got), client.String()
}

func TestWireOversized(t *testing.T) {
	long := strings.Repeat("x", 300)
	cases := []struct {
		name            string
		line            string
		toSDK, toClient string // substrings expected; "" means nothing may arrive
	}{
		{
			name:     "request answered with its id",
			line:     `{"jsonrpc":"2.0","id":"r1","method":"session/prompt","params":{"text":"` + long + `"}}`,
			toClient: `"id":"r1","error":{"code":-32600`,
		},
		{
			name:  "response to tandem turned into an error for the SDK",
			line:  `{"jsonrpc":"2.0","id":7,"result":{"content":"` + long + `"}}`,
			toSDK: `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"client response too large"`,
		},
		{
			name: "notification dropped silently",
			line: `{"jsonrpc":"2.0","method":"session/cancel","params":{"x":"` + long + `"}}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sdk, client := pumpLines(t, 200, tc.line+"\n"+`{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n")
			if tc.toSDK != "" && !strings.Contains(sdk, tc.toSDK) {
				t.Errorf("to SDK %q, want %q", sdk, tc.toSDK)
			}
			if tc.toClient != "" && !strings.Contains(client, tc.toClient) {
				t.Errorf("to client %q, want %q", client, tc.toClient)
			}
			if tc.toClient == "" && client != "" {
				t.Errorf("unexpected reply to the client: %q", client)
			}
			// The next line goes through whole.
			if !strings.HasSuffix(sdk, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n") {
				t.Errorf("the line after an oversized one was lost: %q", sdk)
			}
			if strings.Contains(sdk, long) {
				t.Errorf("the oversized line reached the SDK")
			}
		})
	}
}

func TestWireLastLineWithoutNewline(t *testing.T) {
	sdk, _ := pumpLines(t, 1000, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	if sdk != `{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n" {
		t.Errorf("to SDK %q", sdk)
	}
}

func TestPeekHeader(t *testing.T) {
	for _, tc := range []struct {
		head, id, method string
	}{
		{`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"prompt":[{"text":"aaaa`, "5", "session/prompt"},
		{`{"method":"fs/x","id":"a\"b","params":`, `"a\"b"`, "fs/x"},
		{`{"jsonrpc":"2.0","params":{"huge":"aaaa`, "", ""},
		{`[1,2`, "", ""},
		{`garbage`, "", ""},
	} {
		id, method := peekHeader([]byte(tc.head))
		if string(id) != tc.id || method != tc.method {
			t.Errorf("peekHeader(%q) = %s, %q; want %s, %q", tc.head, id, method, tc.id, tc.method)
		}
	}
}

func TestMessageKind(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want int
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, kindResult},
		{`{"jsonrpc":"2.0","id":"x,\"result\":","error":{"code":1}}`, kindError},
		{`{"jsonrpc":"2.0","id":3,"method":"fs/read_text_file","params":{}}`, kindOther},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"result":1}}`, kindOther},
	} {
		if got, _ := messageKind([]byte(tc.msg)); got != tc.want {
			t.Errorf("messageKind(%s) = %d, want %d", tc.msg, got, tc.want)
		}
	}
}
