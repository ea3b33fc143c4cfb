package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/acp"
	"github.com/tandemhq/tandem/agent/hosttest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// zed is a scripted ACP client that answers the agent's requests the way
// Zed does: fs/read_text_file returns an open buffer's unsaved text, else
// the disk; fs/write_text_file puts the text in the buffer and saves it
// (without creating directories); permission requests are allowed.
type zed struct {
	mu      sync.Mutex
	buffers map[string]string // open buffers, by absolute path
	stall   testenv.Stall     // holds the next fs request when armed
}

func (z *zed) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	var p struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	_ = json.Unmarshal(params, &p)
	switch method {
	case "fs/read_text_file":
		z.stall.Wait()
		z.mu.Lock()
		text, open := z.buffers[p.Path]
		z.mu.Unlock()
		if open {
			return map[string]string{"content": text}, nil
		}
		data, err := os.ReadFile(p.Path)
		if err != nil {
			return nil, &testenv.RPCError{Code: -32603, Message: err.Error()}
		}
		return map[string]string{"content": string(data)}, nil
	case "fs/write_text_file":
		z.stall.Wait()
		if err := os.WriteFile(p.Path, []byte(p.Content), 0o644); err != nil {
			return nil, &testenv.RPCError{Code: -32603, Message: err.Error()}
		}
		z.mu.Lock()
		if _, open := z.buffers[p.Path]; open {
			z.buffers[p.Path] = p.Content // saved: buffer and disk agree
		}
		z.mu.Unlock()
		return nil, nil
	case "session/request_permission":
		return map[string]any{"outcome": map[string]string{"outcome": "selected", "optionId": "allow_once"}}, nil
	}
	return nil, nil // notifications (session/update, $/cancel_request)
}

func (z *zed) setBuffer(t *testing.T, path, text string) {
	z.mu.Lock()
	z.buffers[path] = text
	z.mu.Unlock()
}

// TestHostConformance runs the Host suite against the ACP host, reached
// through acp.Serve over a pipe to the scripted client: once as Zed (the
// client reads and writes files) and once as a client without the fs
// capabilities (tandem uses the disk).
func TestHostConformance(t *testing.T) {
	t.Run("zed", func(t *testing.T) {
		z := &zed{buffers: map[string]string{}}
		h := startZed(t, z, map[string]any{"fs": map[string]bool{"readTextFile": true, "writeTextFile": true}, "terminal": false})
		h.SetBuffer, h.Stall = z.setBuffer, z.stall.Arm
		hosttest.Run(t, h)
	})
	t.Run("no fs capabilities", func(t *testing.T) {
		hosttest.Run(t, startZed(t, &zed{buffers: map[string]string{}}, map[string]any{}))
	})
}

// startZed serves ACP to z declaring caps and returns the host of the
// session it opened.
func startZed(t *testing.T, z *zed, caps map[string]any) hosttest.Harness {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	a, caught := hosttest.CatchingAgent(t)
	toAgent, agentIn := io.Pipe()
	agentOut, fromAgent := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(ctx, toAgent, fromAgent, acp.Options{Agent: a})
		fromAgent.Close()
	}()
	peer := testenv.NewPeer(t, agentOut, agentIn, testenv.Lines, z.handle)
	t.Cleanup(func() {
		peer.Close()
		cancel()
		if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
	})
	must(t, peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, nil))
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	must(t, peer.Call("session/new", map[string]any{"cwd": root, "mcpServers": []any{}}, &ns))
	go peer.Call("session/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "catch"}}}, nil)
	return hosttest.Harness{Host: hosttest.Caught(t, caught), Root: root, Outside: outside}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
