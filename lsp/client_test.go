package lsp_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// The tests drive the real tandem binary over its stdio with this small
// client, written independently of the server's own framing code.

const waitFor = 20 * time.Second

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

type rpcMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// serverRequest answers one server→client request: a result, or an error.
type serverRequest func(method string, params json.RawMessage) (any, *rpcError)

type client struct {
	t      *testing.T
	wait   func() int // waits for the server to end; its exit code
	stdin  io.WriteCloser
	stderr *syncBuffer

	writeMu sync.Mutex

	mu       sync.Mutex // guards seq, pending, log, handler
	seq      int
	pending  map[string]chan rpcMsg
	log      []rpcMsg // every message from the server, in order
	changed  chan struct{}
	handler  serverRequest
	exited   chan struct{}
	exitCode int
}

type syncBuffer = testenv.SyncBuffer

// env points tandem at a fake model server and a private home.
func fakeModelEnv(t *testing.T, srv *llmtest.Server) []string {
	return fakeModelEnvHome(t, srv, t.TempDir())
}

func fakeModelEnvHome(t *testing.T, srv *llmtest.Server, home string) []string {
	if srv == nil {
		return append(os.Environ(), "TANDEM_HOME="+home, "TANDEM_LOG=debug")
	}
	return append(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic)), "TANDEM_LOG=debug")
}

// startClient runs `tandem lsp` and reads its output until it exits.
func startClient(t *testing.T, env []string) *client {
	t.Helper()
	bin := testenv.Tandem(t)
	cmd := exec.Command(bin, "lsp")
	cmd.Env = env
	stderr := &syncBuffer{}
	stdin, stdout := testenv.Start(t, cmd, stderr)
	wait := func() int {
		err := cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			return ee.ExitCode()
		}
		return -1
	}
	return newClient(t, stdin, stdout, stderr, wait, func() { cmd.Process.Kill() })
}

// newClient talks to a server on stdin/stdout; wait reports how it ended
// and kill stops it when it does not end on its own.
func newClient(t *testing.T, stdin io.WriteCloser, stdout io.Reader, stderr *syncBuffer, wait func() int, kill func()) *client {
	c := &client{t: t, wait: wait, stdin: stdin, stderr: stderr, pending: map[string]chan rpcMsg{},
		changed: make(chan struct{}), exited: make(chan struct{}), exitCode: -1}
	go c.readLoop(stdout)
	t.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(5 * time.Second):
			kill()
			<-c.exited
		}
		if t.Failed() {
			t.Logf("tandem stderr:\n%s", c.stderr.String())
		}
	})
	return c
}

func (c *client) readLoop(stdout io.Reader) {
	defer func() {
		code := c.wait()
		c.mu.Lock()
		c.exitCode = code
		c.mu.Unlock()
		close(c.exited)
	}()
	r := bufio.NewReader(stdout)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m rpcMsg
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON %q: %v", body, err)
			return
		}
		c.mu.Lock()
		c.log = append(c.log, m)
		close(c.changed)
		c.changed = make(chan struct{})
		var ch chan rpcMsg
		if m.Method == "" {
			ch = c.pending[string(m.ID)]
		}
		h := c.handler
		c.mu.Unlock()
		switch {
		case ch != nil:
			ch <- m
		case m.Method != "" && m.ID != nil:
			go c.answer(m, h)
		}
	}
}

func (c *client) answer(m rpcMsg, h serverRequest) {
	var res any
	var rerr *rpcError
	if h != nil {
		res, rerr = h(m.Method, m.Params)
	} else {
		rerr = &rpcError{Code: -32601, Message: "no handler"}
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rerr != nil {
		resp["error"] = rerr
	} else {
		resp["result"] = res
	}
	c.send(resp)
}

// onRequest sets how server→client requests are answered.
func (c *client) onRequest(h serverRequest) {
	c.mu.Lock()
	c.handler = h
	c.mu.Unlock()
}

func (c *client) send(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

func (c *client) writeRaw(s string) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := io.WriteString(c.stdin, s); err != nil {
		c.t.Errorf("writing to tandem: %v", err)
	}
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// start sends a request and returns its id and a channel for the answer.
func (c *client) start(method string, params any) (int, chan rpcMsg) {
	c.mu.Lock()
	c.seq++
	id := c.seq
	ch := make(chan rpcMsg, 1)
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id, ch
}

func (c *client) await(method string, ch chan rpcMsg) (json.RawMessage, *rpcError) {
	c.t.Helper()
	select {
	case m := <-ch:
		return m.Result, m.Error
	case <-c.exited:
		// The read loop hands over every answer before it sees the end, so
		// one that came is in ch; select picks at random between the two.
		select {
		case m := <-ch:
			return m.Result, m.Error
		default:
		}
		c.t.Fatalf("%s: tandem exited before answering", method)
	case <-time.After(waitFor):
		c.t.Fatalf("%s: no answer within %v", method, waitFor)
	}
	return nil, nil
}

func (c *client) call(method string, params any) (json.RawMessage, *rpcError) {
	c.t.Helper()
	_, ch := c.start(method, params)
	return c.await(method, ch)
}

// mustCall fails the test on an error answer and decodes the result into out.
func (c *client) mustCall(method string, params, out any) {
	c.t.Helper()
	res, err := c.call(method, params)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, res, err)
		}
	}
}

// initialize runs the handshake with the given client capabilities.
func (c *client) initialize(root string, caps map[string]any) map[string]any {
	c.t.Helper()
	var res map[string]any
	c.mustCall("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(root), "capabilities": caps,
		"workspaceFolders": []map[string]string{{"uri": fileURI(root), "name": "root"}},
	}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

// messages returns a copy of what the server sent so far.
func (c *client) messages() []rpcMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]rpcMsg(nil), c.log...)
}

// waitMsg waits until a message from the server satisfies ok.
func (c *client) waitMsg(what string, ok func(rpcMsg) bool) rpcMsg {
	c.t.Helper()
	return c.waitMsgFrom(0, what, ok)
}

// waitMsgFrom is waitMsg looking only at messages from index seen on.
func (c *client) waitMsgFrom(seen int, what string, ok func(rpcMsg) bool) rpcMsg {
	c.t.Helper()
	deadline := time.After(waitFor)
	for {
		c.mu.Lock()
		log, changed := c.log, c.changed
		c.mu.Unlock()
		for _, m := range log[seen:] {
			if ok(m) {
				return m
			}
		}
		seen = len(log)
		select {
		case <-changed:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// waitExit returns tandem's exit code.
func (c *client) waitExit() int {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(waitFor):
		c.t.Fatal("tandem did not exit")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exitCode
}

func fileURI(path string) string { return "file://" + path }

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func methodIs(name string) func(rpcMsg) bool {
	return func(m rpcMsg) bool { return m.Method == name }
}
