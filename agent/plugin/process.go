package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
	"mvdan.cc/sh/v3/syntax"
)

// maxMessage caps one message from or to a plugin process.
const maxMessage = 4 << 20

// process is one running plugin process: its command and the JSON-RPC
// connection over its stdio. Its owner is an instance. A bundled plugin
// compiled into tandem is called in this process instead (serveInProcess):
// cmd and rpc are nil then, and direct is set.
type process struct {
	cmd    *sandbox.Cmd
	conn   sdk.Caller    // the plugin: rpc, or direct
	rpc    *jsonrpc.Conn // the connection over the process's stdio
	direct *directPlugin // a bundled plugin's handlers, called as functions
	in     io.WriteCloser
	// done is closed once the connection has ended and the process has
	// been reaped; exitErr then says how it ended.
	done    chan struct{}
	exitErr error
	stop    context.CancelFunc // ends Serve
	bad     atomic.Bool        // it wrote something that is not a message
}

// spawnSpec is what starting a plugin process needs.
type spawnSpec struct {
	dir     string   // the plugin folder: the working directory
	argv    []string // main, split
	policy  sandbox.Policy
	helper  string // the sandbox helper (tandem itself); "" runs it unconfined
	env     []string
	stderr  io.Writer // the plugin's log file
	handler jsonrpc.Handler
	log     *slog.Logger
	garbage func(p *process, line string) // a line on stdout that is not a JSON message
	// panicked is a bundled plugin's handler panicking (in this process).
	panicked func(p *process, why string)
}

// spawn starts the process and its connection.
func spawn(sp spawnSpec) (*process, error) {
	name := sp.argv[0]
	if filepath.Base(name) != name || fileExists(filepath.Join(sp.dir, name)) {
		// A path is relative to the plugin folder; a bare name found
		// there is the plugin's own program, else it is looked up in PATH.
		if !filepath.IsAbs(name) {
			name = filepath.Join(sp.dir, name)
		}
	}
	// Under the same sandbox as the commands tandem runs (its own process
	// group, dying with tandem; Landlock where the kernel has it), with
	// the plugin's own policy; no shell, so it starts the same way on
	// every platform.
	cmd := sandbox.Program(sp.policy, sp.helper, append([]string{name}, sp.argv[1:]...))
	cmd.Dir = sp.dir
	cmd.Env = sp.env
	cmd.Stderr = sp.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", sp.argv[0], err)
	}
	p := &process{cmd: cmd, in: in, done: make(chan struct{})}
	p.rpc = newPluginConn(p, out, in, sp)
	p.conn = p.rpc
	p.serve(cmd.Wait)
	return p, nil
}

// serve runs the connection on a goroutine of its own until the plugin's
// output ends or stop is called; then it makes sure the plugin is gone
// (kill), waits for it (wait) and records how it ended.
func (p *process) serve(wait func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	p.stop = cancel
	go func() {
		err := p.rpc.Serve(ctx)
		p.kill()
		werr := wait()
		if p.cmd != nil {
			_ = p.cmd.Tree().Close()
		}
		if err == nil || errors.Is(err, context.Canceled) {
			err = werr
		}
		p.exitErr = err
		close(p.done)
	}()
}

// newPluginConn is the host's side of the connection to p, reading out
// and writing in.
func newPluginConn(p *process, out io.Reader, in io.Writer, sp spawnSpec) *jsonrpc.Conn {
	bad := func(line string) {
		p.bad.Store(true)
		sp.garbage(p, line)
	}
	return jsonrpc.NewConn(&lineCheck{r: out, bad: bad}, in, jsonrpc.Options{
		Framing:      jsonrpc.NewlineDelimited,
		Handler:      sp.handler,
		MaxInbound:   maxMessage,
		MaxOutbound:  maxMessage,
		DrainTimeout: time.Second,
		Log:          sp.log,
	})
}

// kill ends the plugin at once: its whole process tree.
func (p *process) kill() {
	if t := p.cmd.Tree(); t != nil {
		_ = t.Kill()
	}
}

// close asks the plugin to shut down, gives it grace to do so, and kills
// it when the grace is over. It returns once the process is reaped.
func (p *process) close(grace time.Duration) {
	if p.direct != nil {
		p.direct.close(grace)
		return
	}
	select {
	case <-p.done:
		return
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	_ = p.conn.Call(ctx, sdk.MethodShutdown, nil, nil)
	cancel()
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(grace):
		p.kill()
		p.stop()
		<-p.done
	}
}

// lineCheck passes a plugin's stdout through to the connection and
// reports each line that cannot be a JSON-RPC message (it does not start
// with '{'): a plugin printing to stdout has broken the protocol, and is
// treated as failed rather than left to confuse it.
type lineCheck struct {
	r       io.Reader
	bad     func(string)
	midLine bool // the last byte read was inside a line
	once    sync.Once
}

func (l *lineCheck) Read(b []byte) (int, error) {
	n, err := l.r.Read(b)
	for _, c := range b[:n] {
		switch {
		case c == '\n':
			l.midLine = false
		case l.midLine:
		case c == ' ' || c == '\t' || c == '\r':
		case c == '{':
			l.midLine = true
		default:
			l.midLine = true
			l.once.Do(func() { l.bad(excerpt(b[:n])) })
		}
	}
	return n, err
}

// excerpt is a short view of bad output for the log.
func excerpt(b []byte) string {
	const max = 120
	if len(b) > max {
		b = b[:max]
	}
	return string(b)
}

// quote makes s one word for sh.
func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
