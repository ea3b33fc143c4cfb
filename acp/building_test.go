package acp

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
)

// Serve answers initialize while the agent is still being built, and a
// method that needs the agent waits for it instead of failing.
func TestInitializeWhileTheAgentIsBuilt(t *testing.T) {
	release := make(chan struct{})
	home := t.TempDir()
	b := agent.Build(func() (*agent.Agent, error) {
		<-release
		return agent.New(agent.Config{Home: home}), nil
	})
	// Registered first, so it runs after Serve has returned, as in runACP.
	t.Cleanup(func() {
		if a, err := b.Agent(context.Background()); err == nil {
			a.Close(t.Context())
		}
	})
	c := newRawClientWith(t, Options{Building: b})
	result(t, c.request("1", "initialize", initParams()))

	c.send(`{"jsonrpc":"2.0","id":"2","method":"session/new","params":{"cwd":` + jsonString(t.TempDir()) + `,"mcpServers":[]}}`)
	select {
	case line := <-c.lines:
		t.Fatalf("session/new answered before the agent was built: %s", line)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	r := result(t, c.response("2"))
	if r["sessionId"] == "" || r["sessionId"] == nil {
		t.Fatalf("session/new answered %v", r)
	}
}

// An agent that cannot be built ends Serve with the reason, after the
// initialize already read is answered; a method waiting for the agent gets
// the reason too.
func TestAgentBuildFails(t *testing.T) {
	release := make(chan struct{})
	broken := errors.New("config.json: not JSON")
	b := agent.Build(func() (*agent.Agent, error) {
		<-release
		return nil, broken
	})
	c := newRawClientWith(t, Options{Building: b})
	result(t, c.request("1", "initialize", initParams()))
	c.send(`{"jsonrpc":"2.0","id":"2","method":"session/list","params":{}}`)
	close(release)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Serve went on after the agent failed to build")
	}
	if !errors.Is(c.err, broken) {
		t.Errorf("Serve returned %v, want the build's error", c.err)
	}
	for line := range c.lines {
		m, err := decode(line)
		if err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if m["id"] == "2" {
			if e, ok := m["error"].(map[string]any); !ok || !contains(e["message"].(string), broken.Error()) {
				t.Errorf("session/list answered %v, want an error naming the build's", m)
			}
		}
	}
}

// An agent that fails to build before initialize arrives still lets the
// client have its initialize answer, as tandem lsp does; the connection
// ends with the reason right after.
func TestAgentBuildFailsBeforeInitialize(t *testing.T) {
	broken := errors.New("opening the session store: not a directory")
	b := agent.Build(func() (*agent.Agent, error) { return nil, broken })
	b.Agent(context.Background()) // failed before the client says a word
	c := newRawClientWith(t, Options{Building: b})
	select {
	case <-c.done:
		t.Fatalf("Serve returned %v before initialize was answered", c.err)
	case <-time.After(50 * time.Millisecond):
	}
	result(t, c.request("1", "initialize", initParams()))
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Serve went on after initialize with an agent that failed to build")
	}
	if !errors.Is(c.err, broken) {
		t.Errorf("Serve returned %v, want the build's error", c.err)
	}
}
