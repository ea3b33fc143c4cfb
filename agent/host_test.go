package agent

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/internal/testenv"
)

// testHost plays the editor: it records every update and permission
// request, answers permissions from a script, and works on the local disk.
type testHost struct {
	local.Host

	mu      sync.Mutex
	updates []Update
	asks    []PermissionRequest
	answer  func(PermissionRequest) (Decision, error) // nil: allow once
	// readHook runs before every ReadFile; an error fails the read.
	readHook func() error
	changes  testenv.Changes // an update was recorded
}

func (h *testHost) ReadFile(ctx context.Context, path string) (string, error) {
	if h.readHook != nil {
		if err := h.readHook(); err != nil {
			return "", err
		}
	}
	return h.Host.ReadFile(ctx, path)
}

func (h *testHost) Send(u Update) {
	h.mu.Lock()
	h.updates = append(h.updates, u)
	h.mu.Unlock()
	h.changes.Changed()
}

// await waits until cond holds, checking it at each update the host is
// sent (10 s bounds a failure).
func (h *testHost) await(t *testing.T, cond func() bool) {
	t.Helper()
	if !h.changes.Wait(10*time.Second, cond) {
		t.Fatal("condition not met in 10s")
	}
}

func (h *testHost) RequestPermission(ctx context.Context, req PermissionRequest) (Decision, error) {
	h.mu.Lock()
	h.asks = append(h.asks, req)
	answer := h.answer
	h.mu.Unlock()
	if answer == nil {
		return Decision{Kind: AllowOnce}, nil
	}
	return answer(req)
}

func (h *testHost) snapshot() []Update {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Update(nil), h.updates...)
}

func (h *testHost) askCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.asks)
}

// text joins the agent message chunks the host received.
func (h *testHost) text() string {
	var s string
	for _, u := range h.snapshot() {
		if u.Type == AgentMessageChunk {
			s += u.Chunk.Text
		}
	}
	return s
}

// toolUpdates returns the final status of each tool call, by id.
func (h *testHost) toolStatus() map[string]ToolStatus {
	st := map[string]ToolStatus{}
	for _, u := range h.snapshot() {
		if u.Tool != nil && u.Tool.Status != "" {
			st[u.Tool.ID] = u.Tool.Status
		}
	}
	return st
}
