package lsp_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/lsp"
)

// serveBuilding serves LSP in this test binary from an agent still being
// built; Serve's error arrives on the channel when it returns.
func serveBuilding(t *testing.T, b *agent.Building) (*client, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	done := make(chan int, 1)
	go func() {
		err := lsp.NewServer(lsp.Options{Building: b}).Serve(context.Background(), inR, outW)
		outW.Close()
		served <- err
		done <- 0
	}()
	c := newClient(t, inW, outR, &syncBuffer{}, func() int { return <-done }, func() { inW.Close() })
	return c, served
}

// heldBuild is an agent whose build waits until release is sent to or
// closed; the agent is closed at the test's end, after Serve has returned
// (a cleanup registered before serveBuilding's, as in runLSP).
func heldBuild(t *testing.T) (*agent.Building, chan struct{}) {
	release := make(chan struct{})
	home := t.TempDir()
	b := agent.Build(func() (*agent.Agent, error) {
		<-release
		return agent.New(agent.Config{Home: home}), nil
	})
	t.Cleanup(func() {
		if a, err := b.Agent(context.Background()); err == nil {
			a.Close(context.Background())
		}
	})
	return b, release
}

// initialize is answered while the agent is still being built; a method
// that needs the agent waits for it instead of failing.
func TestInitializeWhileTheAgentIsBuilt(t *testing.T) {
	t.Parallel()
	b, release := heldBuild(t)
	c, _ := serveBuilding(t, b)
	defer close(release) // a failed check must not leave the build held
	root := t.TempDir()
	res := c.initialize(root, map[string]any{})
	if res["capabilities"] == nil {
		t.Fatalf("initialize answered %v", res)
	}

	_, ch := c.start("tandem/listSessions", map[string]any{"cwd": root})
	select {
	case m := <-ch:
		t.Fatalf("tandem/listSessions answered before the agent was built: %+v", m)
	case <-time.After(100 * time.Millisecond):
	}
	release <- struct{}{}
	if _, err := c.await("tandem/listSessions", ch); err != nil {
		t.Fatalf("tandem/listSessions after the build: %v", err)
	}
}

// An agent that cannot be built ends Serve with the reason after the
// client has its initialize answer; a request waiting for the agent is
// answered with the reason too.
func TestAgentBuildFails(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	broken := errors.New("opening the session store: permission denied")
	b := agent.Build(func() (*agent.Agent, error) {
		<-release
		return nil, broken
	})
	c, served := serveBuilding(t, b)
	c.initialize(t.TempDir(), map[string]any{})
	_, ch := c.start("tandem/listSessions", map[string]any{})
	// Requests are read in order: once a later one is answered, the
	// server has read tandem/listSessions and is waiting for the agent.
	if _, rerr := c.call("tandem/noSuchMethod", nil); rerr == nil {
		t.Fatal("an unknown method was answered without an error")
	}
	close(release)
	select {
	case err := <-served:
		if !errors.Is(err, broken) {
			t.Errorf("Serve returned %v, want the build's error", err)
		}
	case <-time.After(waitFor):
		t.Fatal("Serve went on after the agent failed to build")
	}
	// Everything the server wrote has been read once the client saw it end.
	c.waitExit()
	select {
	case m := <-ch:
		if m.Error == nil || !strings.Contains(m.Error.Message, broken.Error()) {
			t.Errorf("tandem/listSessions answered %+v, want an error naming the build's", m)
		}
	default:
		t.Error("tandem/listSessions, read before the build failed, was not answered")
	}
}

// A client naming a mode in initializationOptions waits for the agent,
// whose workspace and plugin modes the name is checked against.
func TestInitializeModeWaitsForTheAgent(t *testing.T) {
	t.Parallel()
	b, release := heldBuild(t)
	c, _ := serveBuilding(t, b)
	root := t.TempDir()
	_, ch := c.start("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(root), "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"mode": "no-such-mode"},
	})
	select {
	case m := <-ch:
		close(release)
		t.Fatalf("initialize naming a mode answered before the agent was built: %+v", m)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if _, err := c.await("initialize", ch); err == nil || !strings.Contains(err.Message, "no-such-mode") {
		t.Fatalf("initialize with an unknown mode answered %v, want an error naming it", err)
	}
}

// An agent that fails to build before initialize arrives still lets the
// client have its answer (an error, when initialize named a mode, which
// needs the agent); the connection ends with the reason right after.
func TestAgentBuildFailsBeforeInitialize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		opts map[string]any
	}{
		{"plain", nil},
		{"naming a mode", map[string]any{"mode": "plan"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			broken := errors.New("opening the session store: not a directory")
			b := agent.Build(func() (*agent.Agent, error) { return nil, broken })
			b.Agent(context.Background()) // failed before the client says a word
			cl, served := serveBuilding(t, b)
			select {
			case err := <-served:
				t.Fatalf("Serve returned %v before initialize was answered", err)
			case <-time.After(50 * time.Millisecond):
			}
			params := map[string]any{"processId": nil, "rootUri": fileURI(t.TempDir()), "capabilities": map[string]any{}}
			if c.opts != nil {
				params["initializationOptions"] = c.opts
			}
			res, rerr := cl.call("initialize", params)
			switch {
			case c.opts == nil && (rerr != nil || !strings.Contains(string(res), `"capabilities"`)):
				t.Errorf("initialize answered %s, %v; want its capabilities", res, rerr)
			case c.opts != nil && (rerr == nil || !strings.Contains(rerr.Message, broken.Error())):
				t.Errorf("initialize naming a mode answered %s, %v; want the build's error", res, rerr)
			}
			select {
			case err := <-served:
				if !errors.Is(err, broken) {
					t.Errorf("Serve returned %v, want the build's error", err)
				}
			case <-time.After(waitFor):
				t.Fatal("Serve went on after initialize with an agent that failed to build")
			}
		})
	}
}

// tandem lsp whose session store cannot be opened answers initialize, then
// exits non-zero saying why on stderr.
func TestLSPReportsABrokenHomeAfterInitialize(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "sessions"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, fakeModelEnvHome(t, nil, home))
	// Not c.initialize: tandem may be gone before an initialized
	// notification could reach it.
	res, rerr := c.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(t.TempDir()), "capabilities": map[string]any{}})
	if rerr != nil || !strings.Contains(string(res), `"capabilities"`) {
		t.Fatalf("initialize answered %s, %v; want its capabilities", res, rerr)
	}
	if code := c.waitExit(); code == 0 {
		t.Errorf("tandem lsp exited 0 with a session store it cannot open")
	}
	if !strings.Contains(c.stderr.String(), "opening the session store") {
		t.Errorf("stderr does not say why:\n%s", c.stderr.String())
	}
}
