package acp

import (
	"strings"
	"testing"
)

// FuzzDispatcher feeds arbitrary bytes to the server, line by line, and
// checks that it survives: afterwards it still answers initialize, and every
// line that was a request with an id got exactly its own answer first.
func FuzzDispatcher(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":"a","method":"session/new","params":{"cwd":"$CWD","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/set_config_option","params":{"sessionId":"x","configId":"mode","value":7}}`,
		`{"jsonrpc":"2.0","id":4,"method":"session/list","params":{"cursor":"zz"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"initialize"}`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"initialize"}`,
		`{"id":5,"result":{"outcome":{"outcome":"cancelled"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"$/cancel_request","params":{"requestId":1}}`,
		"\x00\xff{",
		`[]`,
		`{"method":"session/update","params":{}}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		c := newRawClient(t, nil)
		// Sessions get a scratch directory, never a real tree.
		input = strings.ReplaceAll(input, "$CWD", t.TempDir())
		for _, line := range strings.Split(input, "\n") {
			// The probe id is reserved for the liveness check.
			if strings.Contains(line, "fuzz-probe") {
				return
			}
			c.send(line)
		}
		c.alive("fuzz-probe")
	})
}
