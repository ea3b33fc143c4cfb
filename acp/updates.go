package acp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// notifier is the connection as a session's updates need it.
type notifier interface {
	Notify(ctx context.Context, method string, params any) error
}

// updates carries one session's updates to the connection, with no queue
// of its own: the session's one stream (agent's outbox) has ordered them,
// coalesced the text chunks that piled up and made the log durable where
// it must be, and calls Send from one goroutine at a time; each update is
// encoded and handed straight to the connection's writer, waiting while a
// client that does not read keeps it full. Updates the agent sends before
// the session has its id (while NewSession runs) are held and written by
// bind, ahead of any later one.
type updates struct {
	conn notifier
	life context.Context // the connection's: a send waits for room no longer
	log  *slog.Logger

	mu     sync.Mutex // guards the fields below; held while writing, so updates keep their order
	sid    sdk.SessionId
	head   []byte // session/update's params up to the update: {"sessionId":…,"update":
	bound  bool
	held   []json.RawMessage
	failed bool // the connection refused one: nothing more is sent
}

func newUpdates(conn notifier, life context.Context, log *slog.Logger) *updates {
	return &updates{conn: conn, life: life, log: log}
}

// bind names the session and writes what was held, in order.
func (u *updates) bind(sid string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.sid, u.bound = sdk.SessionId(sid), true
	id, _ := json.Marshal(sid) // a string always encodes
	u.head = append(append([]byte(`{"sessionId":`), id...), `,"update":`...)
	for _, raw := range u.held {
		u.write(raw)
	}
	u.held = nil
}

// send writes one encoded update, or holds it until bind.
func (u *updates) send(raw json.RawMessage) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.bound {
		u.held = append(u.held, raw)
		return
	}
	u.write(raw)
}

// sendValue encodes v (an agent.Update or an SDK update) and sends it.
func (u *updates) sendValue(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	u.send(b)
	return nil
}

// write hands raw to the connection, with u.mu held, as session/update's
// params: agent.Update's JSON is ACP's update object, so it needs no
// conversion, and being json.Marshal's output it goes into the frame as
// is (jsonrpc.Encoded) rather than scanned again. An update over the
// frame cap is dropped alone (the agent caps texts so this does not
// happen; a frame that still does must not end the session's updates);
// any other failure ends them.
func (u *updates) write(raw json.RawMessage) {
	if u.failed {
		return
	}
	params := make([]byte, 0, len(u.head)+len(raw)+1)
	params = append(append(append(params, u.head...), raw...), '}')
	err := u.conn.Notify(u.life, sdk.ClientMethodSessionUpdate, jsonrpc.Encoded(params))
	switch {
	case err == nil, errors.Is(err, jsonrpc.ErrTooLarge):
	case errors.Is(err, jsonrpc.ErrClosed) || u.life.Err() != nil:
		u.failed = true // the client is gone (the session's last updates at shutdown)
	default:
		u.failed = true
		u.log.Warn("acp: session updates no longer reach the client", "session", u.sid, "err", err)
	}
}
