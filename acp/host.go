package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/agent/tools"
)

// host is agent.Host for one session over the client connection. It uses
// the client's file system and terminals when initialize offered them and
// the local machine otherwise. Every request it makes to the client first
// flushes the session's queued updates, so the client sees e.g. a tool call
// before the permission request about it.
type host struct {
	srv   *server
	out   *updates
	caps  sdk.ClientCapabilities
	local tools.Host
	// unstable is set when the client opted into the unstable schema's
	// parts (server.optedIn) by the time the session opened.
	unstable bool
	// compaction is set when the client takes compaction_update; others
	// see a compaction as a tool call (agent.Update.ToolCallForm).
	compaction bool

	sidMu sync.Mutex
	sid   sdk.SessionId // set by bind once the agent has named the session
}

var _ agent.Host = (*host)(nil)

func (h *host) bind(id string) {
	h.sidMu.Lock()
	h.sid = sdk.SessionId(id)
	h.sidMu.Unlock()
}

func (h *host) sessionID() sdk.SessionId {
	h.sidMu.Lock()
	defer h.sidMu.Unlock()
	return h.sid
}

// admit applies the Host contract's rules before an edit goes anywhere:
// ACP has no versions that would let the client notice a stale edit, so
// the host compares it with the editor's view itself, and it keeps edits
// inside the session roots. The result is the reason to refuse, or "".
func (h *host) admit(ctx context.Context, e edits.FileEdit) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ss, err := h.srv.lookup(h.sessionID())
	if err != nil {
		return "the session is closed", nil
	}
	root := ss.sess.RootOf(e.Path)
	if h.onDisk(e) && !h.caps.Fs.ReadTextFile {
		// The disk is both the view and where the edit goes: the local
		// host compares the edit with what it reads there (beneath the
		// root, as it writes), so reading the file here too would only
		// read it twice on every edit.
		return local.Refusal(root, e.Path), nil
	}
	return local.Check(ctx, root, e, h.ReadFile)
}

// onDisk says whether e is applied by the local host rather than the
// client: clients without fs/write_text_file, and deletions, which ACP
// has no request for.
func (h *host) onDisk(e edits.FileEdit) bool { return !h.caps.Fs.WriteTextFile || e.Delete }

// readable refuses a read before it is sent: after ctx ended, or of a
// relative path, which the client would resolve against something of its
// own choosing.
func readable(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !filepath.IsAbs(path) {
		return fmt.Errorf("read %q: %w", path, local.ErrNotAbsolute)
	}
	return nil
}

// diskHost is the host for clients without fs or terminal capabilities.
// It has no Root of its own: admit has confined the path already.
func diskHost() tools.Host { return local.Host{} }

// Send writes one update to the connection; agent.Update's JSON is
// already ACP's "update" object (a text chunk written without reflection).
// Its MarshalJSON is called directly: json.Marshal(u) would scan and copy
// what it returns once more. A mode change also refreshes the config
// selectors.
func (h *host) Send(u agent.Update) {
	raw, err := h.fit(u).MarshalJSON()
	if err != nil {
		h.srv.log.Error("acp: dropping an update that does not encode", "type", u.Type, "err", err)
		return
	}
	h.out.send(raw)
	if u.Type == agent.CurrentModeUpdate {
		if ss, err := h.srv.lookup(h.sessionID()); err == nil {
			h.srv.announceConfig(ss)
		}
	}
}

// beforeRequest refuses a client request whose context has ended. The
// updates produced before it are on the connection already: the session's
// stream hands them over before it calls the host (agent's orderedHost),
// and Send writes them through without a queue here.
func (h *host) beforeRequest(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("acp: %w", err)
	}
	return nil
}

// toolCallUpdate converts the agent's tool call to the SDK's shape; the two
// share ACP's JSON, so the conversion goes through it.
func toolCallUpdate(tc agent.ToolCall) (sdk.ToolCallUpdate, error) {
	b, err := json.Marshal(tc)
	if err != nil {
		return sdk.ToolCallUpdate{}, err
	}
	var u sdk.ToolCallUpdate
	if err := json.Unmarshal(b, &u); err != nil {
		return sdk.ToolCallUpdate{}, fmt.Errorf("acp: tool call %s does not fit ACP: %w", tc.ID, err)
	}
	return u, nil
}
