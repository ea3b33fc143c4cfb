package acp

import (
	"encoding/json"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// wireClient is a raw JSON-RPC editor over a real `tandem acp`: every line
// tandem writes is checked against the ACP schema and recorded in wire
// order, responses among them; ask answers permission requests.
type wireClient struct {
	peer *testenv.Peer
	ask  func(params json.RawMessage) any // nil: allow once
	cmd  *exec.Cmd

	stop   func()      // ends tandem (also at cleanup)
	killed atomic.Bool // kill9 ended it: its exit is no failure

	mu      sync.Mutex
	lines   []wireMsg
	arrived chan struct{} // closed and replaced on every line
}

// wireMsg is one message tandem wrote.
type wireMsg struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	raw    []byte
}

// update is a session/update's update, decoded loosely.
func (m wireMsg) update() map[string]any {
	var p struct {
		Update map[string]any `json:"update"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.Update
}

// startRaw starts `tandem acp` on home against the fake model at url,
// with env added to its environment, and initializes it with caps.
func startRaw(t *testing.T, home, url string, caps map[string]any, env ...string) *wireClient {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(append(testenv.ModelEnv(home, url), "TANDEM_LOG=debug"), env...)
	stderr := &testenv.SyncBuffer{}
	stdin, stdout := testenv.Start(t, cmd, stderr)
	tap := newRequestTap(stdin)
	check := loadWireSchema(t).async(t, tap)
	c := &wireClient{arrived: make(chan struct{}), cmd: cmd}
	record := func(line []byte) {
		check(line)
		m := wireMsg{raw: append([]byte(nil), line...)}
		if json.Unmarshal(line, &m) != nil {
			return
		}
		c.mu.Lock()
		c.lines = append(c.lines, m)
		close(c.arrived)
		c.arrived = make(chan struct{})
		c.mu.Unlock()
	}
	c.peer = testenv.NewPeer(t, &wireTap{r: stdout, check: record}, tap, testenv.Lines, c.handle)
	var once sync.Once
	c.stop = func() {
		once.Do(func() {
			c.peer.Close()
			if err := testenv.WaitExit(cmd, 10*time.Second); err != nil && !c.killed.Load() {
				t.Errorf("tandem acp: %v", err)
			}
			if t.Failed() {
				t.Logf("tandem stderr:\n%s", stderr.String())
			}
		})
	}
	t.Cleanup(c.stop)
	answered(t, c.peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, nil))
	return c
}

func (c *wireClient) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	switch method {
	case "session/update", "$/cancel_request":
		return nil, nil
	case "session/request_permission":
		if c.ask != nil {
			return c.ask(params), nil
		}
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	}
	return nil, &testenv.RPCError{Code: -32601, Message: "the test client does not serve " + method}
}

// kill9 ends tandem the way a crash does (no flush, no goodbye) and waits
// until its output has ended.
func (c *wireClient) kill9(t *testing.T) {
	t.Helper()
	c.killed.Store(true)
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.peer.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("tandem still writing after kill -9")
	}
	c.stop()
}

// newSession opens a session in ws and returns its id.
func (c *wireClient) newSession(t *testing.T, ws string) string {
	t.Helper()
	var r struct {
		SessionID string `json:"sessionId"`
	}
	answered(t, c.peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &r))
	return r.SessionID
}

// prompt sends text and returns the stop reason once tandem answers.
func (c *wireClient) prompt(t *testing.T, sid, text string) string {
	t.Helper()
	var r struct {
		StopReason string `json:"stopReason"`
	}
	answered(t, c.peer.Call("session/prompt", map[string]any{"sessionId": sid,
		"prompt": []any{map[string]any{"type": "text", "text": text}}}, &r))
	return r.StopReason
}

// since returns the messages from the n-th on.
func (c *wireClient) since(n int) []wireMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]wireMsg(nil), c.lines[min(n, len(c.lines)):]...)
}

// count is how many messages tandem wrote so far.
func (c *wireClient) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.lines)
}

// await waits until a message from the from-th on satisfies ok and
// returns its index.
func (c *wireClient) await(t *testing.T, from int, what string, ok func(wireMsg) bool) int {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for i := from; ; {
		c.mu.Lock()
		for ; i < len(c.lines); i++ {
			if ok(c.lines[i]) {
				c.mu.Unlock()
				return i
			}
		}
		arrived := c.arrived
		c.mu.Unlock()
		select {
		case <-arrived:
		case <-deadline:
			t.Fatalf("no %s within 30 s", what)
		}
	}
}

// meta is an update's _meta, decoded loosely.
func meta(u map[string]any) map[string]any {
	m, _ := u["_meta"].(map[string]any)
	return m
}

// parentOf is the task call an update is nested under in both keys; ""
// when it is not, or when the keys disagree.
func parentOf(u map[string]any) string {
	m := meta(u)
	cc, _ := m["claudeCode"].(map[string]any)
	td, _ := m["tandem"].(map[string]any)
	a, _ := cc["parentToolUseId"].(string)
	b, _ := td["parentToolCallId"].(string)
	if a != b {
		return ""
	}
	return a
}
