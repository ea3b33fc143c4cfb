package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"
)

// MaxMessageBytes caps one JSON-RPC message (one line) in either direction.
// The SDK's reader dies on lines over 10 MiB and takes the connection with
// it, so the wire refuses bigger lines itself and answers them with an error.
const MaxMessageBytes = 8 << 20

// wire sits between the byte streams and the SDK connection. Inbound, it
// drops what the SDK would silently swallow or choke on (malformed JSON,
// non-objects, oversized lines) and answers those with JSON-RPC errors.
// Outbound, it serialises every message — the SDK's and the session
// outboxes' — and tells waiters when a response has been written, so
// notifications that must follow a response (available_commands_update after
// session/new) can be held back until then.
type wire struct {
	log      *slog.Logger
	maxLine  int
	toClient io.Writer

	outMu sync.Mutex // guards writes to toClient; one message per Write

	hooksMu sync.Mutex
	hooks   []responseHook

	// Requests read from the client and not answered yet, so Serve can let
	// them finish when the client closes its end first.
	openMu   sync.Mutex
	open     int
	answered chan struct{} // closed and replaced whenever open drops

	// Prompts in flight by request id, so a $/cancel_request naming one
	// can cancel its turn: the SDK cancels the request's context, which the
	// turn cannot follow (the SDK also cancels it when a second prompt for
	// the session arrives, and that one is refused, not obeyed).
	promptsMu      sync.Mutex
	prompts        map[string]string // canonical request id -> session id
	onCancelPrompt func(sessionID string)
}

// responseHook runs fire once a response whose result mentions session id
// sid has been written.
type responseHook struct {
	marker []byte
	fire   func()
}

func newWire(out io.Writer, log *slog.Logger) *wire {
	return &wire{log: log, maxLine: MaxMessageBytes, toClient: out, answered: make(chan struct{})}
}

// Write sends one complete message. The SDK calls it with a whole
// newline-terminated message per call, which is what keeps messages from
// interleaving.
func (w *wire) Write(p []byte) (int, error) {
	w.outMu.Lock()
	n, err := w.toClient.Write(p)
	w.outMu.Unlock()
	if kind, id := messageKind(p); kind == kindResult || kind == kindError {
		w.promptDone(id)
		w.opened(-1)
		if err == nil && kind == kindResult {
			w.runHooks(p)
		}
	}
	return n, err
}

// opened counts requests in (+1) and answers out (-1).
func (w *wire) opened(delta int) {
	w.openMu.Lock()
	w.open += delta
	if delta < 0 {
		close(w.answered)
		w.answered = make(chan struct{})
	}
	w.openMu.Unlock()
}

// drain waits until every request read so far has been answered, at most d.
func (w *wire) drain(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		w.openMu.Lock()
		open, ch := w.open, w.answered
		w.openMu.Unlock()
		if open <= 0 {
			return true
		}
		select {
		case <-ch:
		case <-t.C:
			return false
		}
	}
}

// afterResponse arranges for fire to run once the response naming session
// sid (in its result) is on the wire. Handlers register just before they
// return the response.
func (w *wire) afterResponse(sid string, fire func()) {
	marker, _ := json.Marshal(sid)
	marker = append([]byte(`"sessionId":`), marker...)
	w.hooksMu.Lock()
	w.hooks = append(w.hooks, responseHook{marker: marker, fire: fire})
	w.hooksMu.Unlock()
}

func (w *wire) runHooks(msg []byte) {
	w.hooksMu.Lock()
	if len(w.hooks) == 0 {
		w.hooksMu.Unlock()
		return
	}
	var ready []func()
	kept := w.hooks[:0]
	for _, h := range w.hooks {
		if bytes.Contains(msg, h.marker) {
			ready = append(ready, h.fire)
		} else {
			kept = append(kept, h)
		}
	}
	w.hooks = kept
	w.hooksMu.Unlock()
	for _, f := range ready {
		f()
	}
}

// Kinds of outgoing message, told apart by how the SDK encodes them
// (jsonrpc, id, method, params, result, error in that order).
const (
	kindOther  = iota // notification or request to the client
	kindResult        // successful response
	kindError         // error response
)

func messageKind(msg []byte) (kind int, id json.RawMessage) {
	const prefix = `{"jsonrpc":"2.0","id":`
	if !bytes.HasPrefix(msg, []byte(prefix)) {
		return kindOther, nil
	}
	rest := msg[len(prefix):]
	dec := json.NewDecoder(bytes.NewReader(rest))
	if err := dec.Decode(&id); err != nil {
		return kindOther, nil
	}
	switch after := rest[dec.InputOffset():]; {
	case bytes.HasPrefix(after, []byte(`,"result":`)):
		return kindResult, id
	case bytes.HasPrefix(after, []byte(`,"error":`)):
		return kindError, id
	}
	return kindOther, nil
}

// idKey is the form request ids are compared in: their JSON without
// insignificant whitespace (7 and "7" stay different ids).
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// promptStarted records a session/prompt request read from the client.
func (w *wire) promptStarted(id json.RawMessage, sessionID string) {
	w.promptsMu.Lock()
	if w.prompts == nil {
		w.prompts = map[string]string{}
	}
	w.prompts[idKey(id)] = sessionID
	w.promptsMu.Unlock()
}

// promptDone forgets a request once its answer is written, so a late
// $/cancel_request cannot reach a later turn of the same session.
func (w *wire) promptDone(id json.RawMessage) {
	w.promptsMu.Lock()
	delete(w.prompts, idKey(id))
	w.promptsMu.Unlock()
}

// cancelRequest handles $/cancel_request for a prompt in flight; other
// requests are the SDK's to cancel.
func (w *wire) cancelRequest(id json.RawMessage) {
	w.promptsMu.Lock()
	sid, ok := w.prompts[idKey(id)]
	w.promptsMu.Unlock()
	if ok && w.onCancelPrompt != nil {
		w.onCancelPrompt(sid)
	}
}

// writeError answers a message the SDK never sees.
func (w *wire) writeError(id json.RawMessage, code int, message string, detail string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message, map[string]string{"error": detail}}})
	if err != nil {
		w.log.Error("acp: encoding an error reply", "err", err)
		return
	}
	w.opened(+1) // Write counts it as an answer
	if _, err := w.Write(append(b, '\n')); err != nil {
		w.log.Debug("acp: writing an error reply", "err", err)
	}
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// JSON-RPC error codes the wire uses itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInternalError  = -32603
)
