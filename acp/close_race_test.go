package acp

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
)

// An editor may go away (stdin EOF, so Agent.Close) right after
// session/new, while the new session's commands are still being announced;
// under -race this caught the agent's shutdown racing the announcement.
// Once closed, the agent opens no more sessions.
func TestAgentClosesWhileCommandsAreAnnounced(t *testing.T) {
	for i := range 20 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			a := agent.New(agent.Config{Home: t.TempDir()})
			c := newRawClientWith(t, Options{Agent: a})
			result(t, c.request("1", "initialize", initParams()))
			newSession := `"method":"session/new","params":{"cwd":` + jsonString(t.TempDir()) + `,"mcpServers":[]}}`
			c.send(`{"jsonrpc":"2.0","id":"2",` + newSession)
			result(t, c.response("2"))
			if err := a.Close(t.Context()); err != nil {
				t.Fatalf("Close: %v", err)
			}
			c.send(`{"jsonrpc":"2.0","id":"3",` + newSession)
			e, ok := c.response("3")["error"].(map[string]any)
			if !ok || !strings.Contains(e["message"].(string), agent.ErrAgentClosed.Error()) {
				t.Fatalf("session/new after Close answered %v, want %q", e, agent.ErrAgentClosed)
			}
		})
	}
}
