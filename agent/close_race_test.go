package agent

import (
	"context"
	"testing"
)

// A session answers queries at any moment, while the agent closes too: an
// editor that goes away right after session/new (stdin EOF) closes the
// agent while ACP is still asking the new session for its commands. Under
// -race this caught shutdown stopping the MCP servers and code indexes
// by writing the actor's state, which a query then read unsynchronised.
func TestQueriesWhileTheAgentCloses(t *testing.T) {
	for range 20 {
		a := New(Config{Home: t.TempDir()})
		s, err := a.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Host: &testHost{}})
		if err != nil {
			t.Fatal(err)
		}
		closed := make(chan error, 1)
		go func() { closed <- a.Close(context.Background()) }()
		for asking := true; asking; {
			s.Commands()
			s.index.done()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatalf("Close: %v", err)
				}
				asking = false
			default:
			}
		}
		if ms := s.mcp.list(); len(ms) != 0 {
			t.Fatalf("a closed session still holds %d MCP connections", len(ms))
		}
		if len(s.Commands()) == 0 {
			t.Fatal("a closed session lists no commands; its built-in ones are still its own")
		}
	}
}
