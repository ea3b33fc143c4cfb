package agent

import (
	"context"
	"sync"

	"github.com/tandemhq/tandem/agent/local"
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
	defer h.mu.Unlock()
	h.updates = append(h.updates, u)
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
