package mcp

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/config"
)

// stdioGrace is how long a stdio server gets to exit after its stdin
// closes before it is sent SIGTERM (and as long again before SIGKILL).
// Many servers leave at once; server-everything waits for the signal, so
// this is on the path of every session close.
const stdioGrace = 500 * time.Millisecond

// link is the transport to one server plus what tandem must clean up
// itself: the process group of a stdio server, the idle connections of an
// HTTP one.
type link struct {
	transport sdk.Transport
	cmd       *exec.Cmd    // stdio only
	stderr    *tailWriter  // stdio only
	http      *http.Client // http and sse only
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
	// Its own process group, so Close reaches what the server started too
	// (npx runs the real server as a grandchild).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Wait must not hang on a grandchild that keeps stderr open.
	cmd.WaitDelay = time.Second
	tail := &tailWriter{log: log.With("stream", "stderr")}
	cmd.Stderr = tail
	return &link{
		transport: &sdk.CommandTransport{Command: cmd, TerminateDuration: stdioGrace},
		cmd:       cmd,
		stderr:    tail,
	}
}

// release kills whatever is left of a stdio server's process group and
// drops idle HTTP connections. The SDK's Close has already asked nicely.
func (l *link) release() {
	if l.cmd != nil && l.cmd.Process != nil {
		// The group id is the leader's pid; killing the group also catches
		// grandchildren the leader left behind. ESRCH (all gone) is fine.
		_ = syscall.Kill(-l.cmd.Process.Pid, syscall.SIGKILL)
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
