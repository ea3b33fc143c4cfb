package agent

import (
	"context"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Agent.Close also stops a session that is still being opened (starting
// its MCP servers) when Close begins: once Close returns, none of that
// session's server processes is left, whichever came first.
func TestCloseWhileASessionOpens(t *testing.T) {
	// A server that never answers the handshake: it stays up until its
	// stdin is closed.
	mute := mcp.Server{Name: "mute", Type: mcp.TypeStdio, Command: testenv.Program(t, "sh"), Args: []string{"-c", "exec cat >/dev/null"}}
	for i := range 20 {
		a := New(Config{Home: t.TempDir()})
		opened := make(chan error, 1)
		go func() {
			_, err := a.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Host: &testHost{}, MCPServers: []mcp.Server{mute}})
			opened <- err
		}()
		time.Sleep(time.Duration(i%5) * time.Millisecond)
		if err := a.Close(context.Background()); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if c := children(); len(c) > 0 {
			t.Fatalf("run %d: the opening session's MCP servers outlived Close: %v", i, c)
		}
		<-opened
	}
}
