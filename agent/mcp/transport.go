package mcp

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/internal/proc"
)

// stdioGrace is how long a stdio server gets to exit after its stdin
// closes before it is sent SIGTERM (and as long again before SIGKILL).
// Many servers leave at once; server-everything waits for the signal, so
// this is on the path of every session close.
const stdioGrace = 500 * time.Millisecond

// link is the transport to one server plus what tandem must clean up
// itself: the process tree of a stdio server, the idle connections of an
// HTTP one.
type link struct {
	transport sdk.Transport
	tree      *treeHolder  // stdio only
	stderr    *tailWriter  // stdio only
	http      *http.Client // http and sse only
}

// treeHolder keeps a stdio server's process tree from the moment the SDK
// has started it (treeTransport) until the link is released, which may
// happen on another goroutine.
type treeHolder struct {
	mu   sync.Mutex
	tree *proc.Tree
}

func (h *treeHolder) set(t *proc.Tree) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tree = t
}

// end kills whatever is left of the tree and releases it.
func (h *treeHolder) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tree != nil {
		_ = h.tree.Kill()
		_ = h.tree.Close()
		h.tree = nil
	}
}

// treeTransport is the SDK's command transport, which starts the server,
// followed by proc.Track, which takes charge of its process tree (on
// Windows: puts it in its job and only then lets it run).
type treeTransport struct {
	*sdk.CommandTransport
	trees *treeHolder
}

func (t treeTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.CommandTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	tree, err := proc.Track(t.Command)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	t.trees.set(tree)
	return conn, nil
}

func newLink(s Server, root string, log *slog.Logger) *link {
	switch s.Type {
	case TypeHTTP, TypeSSE:
		base := http.DefaultTransport.(*http.Transport).Clone()
		hc := &http.Client{Transport: headerTransport{base: base, headers: s.Headers}}
		l := &link{http: hc}
		if s.Type == TypeSSE {
			l.transport = &sdk.SSEClientTransport{Endpoint: s.URL, HTTPClient: hc}
		} else {
			l.transport = &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: hc}
		}
		return l
	}
	cmd := exec.Command(s.Command, s.Args...)
	// A relative command in a project's mcp.json means a path in the project.
	cmd.Dir = root
	cmd.Env = serverEnv(os.Environ(), s.Env)
	// Its own process tree, so Close reaches what the server started too
	// (npx runs the real server as a grandchild).
	proc.Group(cmd)
	// Wait must not hang on a grandchild that keeps stderr open.
	cmd.WaitDelay = time.Second
	tail := &tailWriter{log: log.With("stream", "stderr")}
	cmd.Stderr = tail
	trees := &treeHolder{}
	return &link{
		transport: treeTransport{&sdk.CommandTransport{Command: cmd, TerminateDuration: stdioGrace}, trees},
		tree:      trees,
		stderr:    tail,
	}
}

// release kills whatever is left of a stdio server's process tree
// (grandchildren the leader left behind too) and drops idle HTTP
// connections. The SDK's Close has already asked nicely.
func (l *link) release() {
	if l.tree != nil {
		l.tree.end()
	}
	if l.http != nil {
		l.http.CloseIdleConnections()
	}
}

// lastWords is the end of a stdio server's stderr, which usually says why
// it died; empty for HTTP servers.
func (l *link) lastWords() string {
	if l.stderr == nil {
		return ""
	}
	return l.stderr.tail()
}

func serverEnv(base []string, extra []NameValue) []string {
	set := map[string]bool{}
	for _, kv := range extra {
		set[kv.Name] = true
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, e := range base {
		name, _, _ := strings.Cut(e, "=")
		// tandem's own secrets reach a server only when its entry names them.
		if set[name] || config.IsSecretEnv(name) {
			continue
		}
		out = append(out, e)
	}
	for _, kv := range extra {
		out = append(out, kv.Name+"="+kv.Value)
	}
	return out
}

// headerTransport adds a server's configured headers (often credentials)
// to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers []NameValue
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for _, h := range t.headers {
			r.Header.Set(h.Name, h.Value)
		}
	}
	return t.base.RoundTrip(r)
}

func (t headerTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// tailWriter logs a server's stderr line by line (debug level) and keeps
// its last lines for the message shown when the server fails.
type tailWriter struct {
	log *slog.Logger

	mu      sync.Mutex // guards partial and last
	partial []byte
	last    []string
}

const tailLines = 5

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.line(string(w.partial[:i]))
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > 4096 { // a line without end: keep it bounded
		w.line(string(w.partial))
		w.partial = w.partial[:0]
	}
	return len(p), nil
}

func (w *tailWriter) line(s string) {
	s = strings.TrimRight(s, "\r ")
	if s == "" {
		return
	}
	w.log.Debug("mcp server stderr", "line", s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	w.last = append(w.last, s)
	if len(w.last) > tailLines {
		w.last = w.last[len(w.last)-tailLines:]
	}
}

func (w *tailWriter) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := w.last
	if len(w.partial) > 0 {
		lines = append(lines[:len(lines):len(lines)], string(w.partial))
	}
	return strings.Join(lines, " | ")
}

// describe joins an error with a stdio server's last stderr lines.
func describe(err error, l *link) string {
	if words := l.lastWords(); words != "" {
		return fmt.Sprintf("%v (stderr: %s)", err, words)
	}
	return err.Error()
}
