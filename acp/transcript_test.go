package acp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestTranscriptMatchesSchema drives `tandem acp` through a whole session
// as a raw JSON-RPC client (initialize, session/new, a prompt whose tools
// read and write through the client and ask permission, session/load,
// session/list, session/fork, and a turn ended by session/cancel) and
// checks every message tandem writes against ACP 1.21: the stable schema
// for a client that sent only stable capabilities, the unstable one for a
// client that opted in, and only that client gets the unstable parts (the
// fork capability, the turn's usage).
func TestTranscriptMatchesSchema(t *testing.T) {
	stable := map[string]any{
		"fs":       map[string]bool{"readTextFile": true, "writeTextFile": true},
		"terminal": false,
		"auth":     map[string]bool{"terminal": true},
		"_meta":    map[string]any{"terminal-auth": true},
	}
	unstable := map[string]any{"session": map[string]any{"compaction": map[string]any{}}}
	for k, v := range stable {
		unstable[k] = v
	}
	t.Run("stable client", func(t *testing.T) { runTranscript(t, stable, false) })
	t.Run("unstable client", func(t *testing.T) { runTranscript(t, unstable, true) })
}

// transcriptClient is the raw client of one transcript: it answers
// tandem's fs and permission requests from disk and records what it saw.
type transcriptClient struct {
	asks    atomic.Int32
	mu      sync.Mutex
	updates map[string][]map[string]any // session id → its updates
	chunk   chan string                 // agent message chunk texts, as they come
}

func (c *transcriptClient) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	var p struct {
		SessionID string         `json:"sessionId"`
		Path      string         `json:"path"`
		Content   string         `json:"content"`
		Update    map[string]any `json:"update"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &testenv.RPCError{Code: -32602, Message: err.Error()}
	}
	switch method {
	case "session/update":
		c.mu.Lock()
		c.updates[p.SessionID] = append(c.updates[p.SessionID], p.Update)
		c.mu.Unlock()
		if p.Update["sessionUpdate"] == "agent_message_chunk" {
			content, _ := p.Update["content"].(map[string]any)
			text, _ := content["text"].(string)
			c.chunk <- text
		}
		return nil, nil
	case "session/request_permission":
		c.asks.Add(1)
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	case "fs/read_text_file":
		b, err := os.ReadFile(p.Path)
		if err != nil {
			return nil, &testenv.RPCError{Code: -32002, Message: err.Error()}
		}
		return map[string]any{"content": string(b)}, nil
	case "fs/write_text_file":
		if err := os.WriteFile(p.Path, []byte(p.Content), 0o644); err != nil {
			return nil, &testenv.RPCError{Code: -32603, Message: err.Error()}
		}
		return map[string]any{}, nil
	}
	return nil, &testenv.RPCError{Code: -32601, Message: "the test client does not serve " + method}
}

func (c *transcriptClient) kinds(sid string) map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := map[string]int{}
	for _, u := range c.updates[sid] {
		kind, _ := u["sessionUpdate"].(string)
		n[kind]++
	}
	return n
}

func runTranscript(t *testing.T, caps map[string]any, optedIn bool) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"Reading, then writing."}, ToolCalls: []llmtest.ToolCall{
			{ID: "r1", Name: "read_file", Args: `{"path":"a.txt"}`},
			{ID: "w1", Name: "write_file", Args: `{"path":"b.txt","content":"written\n"}`},
		}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{Text: []string{"thinking it over"}, Hang: true},
	)
	home := t.TempDir()
	ws := workspace(t, map[string]string{"a.txt": "alpha\n"})
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic))
	stderr := &testenv.SyncBuffer{}
	stdin, stdout := testenv.Start(t, cmd, stderr)
	tap := newRequestTap(stdin)
	var lines atomic.Int32
	check := loadWireSchema(t).async(t, tap)
	counted := func(line []byte) { lines.Add(1); check(line) }
	client := &transcriptClient{updates: map[string][]map[string]any{}, chunk: make(chan string, 1024)}
	peer := testenv.NewPeer(t, &wireTap{r: stdout, check: counted}, tap, testenv.Lines, client.handle)
	t.Cleanup(func() {
		peer.Close()
		if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
			t.Errorf("tandem acp: %v", err)
		}
		if t.Failed() {
			t.Logf("tandem stderr:\n%s", stderr.String())
		}
	})

	var init struct {
		AgentCapabilities struct {
			SessionCapabilities map[string]any `json:"sessionCapabilities"`
		} `json:"agentCapabilities"`
		AuthMethods []map[string]any `json:"authMethods"`
	}
	answered(t, peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, &init))
	if _, fork := init.AgentCapabilities.SessionCapabilities["fork"]; fork != optedIn {
		t.Errorf("sessionCapabilities.fork advertised %v, want %v", fork, optedIn)
	}
	var methods []string
	for _, m := range init.AuthMethods {
		b, _ := json.Marshal(m)
		methods = append(methods, string(b))
		if typ, _ := m["type"].(string); typ != "" && typ != "terminal" {
			t.Errorf("auth method of type %q, which ACP 1.21 does not define: %s", typ, b)
		}
	}
	if got := strings.Join(methods, "\n"); !strings.Contains(got, `"type":"terminal"`) || !strings.Contains(got, `"terminal-auth":{`) {
		t.Errorf("a client with auth.terminal and _meta.terminal-auth gets no terminal login:\n%s", got)
	}

	var created struct {
		SessionID string `json:"sessionId"`
	}
	answered(t, peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &created))
	sid := created.SessionID

	var turn map[string]any
	answered(t, peer.Call("session/prompt", map[string]any{"sessionId": sid,
		"prompt": []any{map[string]any{"type": "text", "text": "copy a.txt's gist into b.txt"}}}, &turn))
	if turn["stopReason"] != "end_turn" {
		t.Fatalf("the tool turn ended %v", turn)
	}
	if _, usage := turn["usage"]; usage != optedIn {
		t.Errorf("the prompt response carries usage %v, want %v: %v", usage, optedIn, turn)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "b.txt")); err != nil || string(b) != "written\n" {
		t.Errorf("b.txt after the turn: %q, %v", b, err)
	}
	if n := client.asks.Load(); n != 1 {
		t.Errorf("%d permission asks, want 1 (the write)", n)
	}

	answered(t, peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	var list struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
		} `json:"sessions"`
	}
	answered(t, peer.Call("session/list", map[string]any{"cwd": ws}, &list))
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != sid {
		t.Errorf("session/list: %+v, want only %s", list.Sessions, sid)
	}
	var fork struct {
		SessionID string `json:"sessionId"`
	}
	answered(t, peer.Call("session/fork", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, &fork))
	if fork.SessionID == "" || fork.SessionID == sid {
		t.Fatalf("fork of %s: %q", sid, fork.SessionID)
	}

	// The last turn hangs in the model's stream until session/cancel.
	lastTurn := make(chan map[string]any, 1)
	go func() {
		var r map[string]any
		if err := peer.Call("session/prompt", map[string]any{"sessionId": fork.SessionID,
			"prompt": []any{map[string]any{"type": "text", "text": "think"}}}, &r); err != nil {
			t.Errorf("the cancelled prompt: %v", err)
		}
		lastTurn <- r
	}()
	for started := false; !started; {
		select {
		case text := <-client.chunk:
			started = strings.Contains(text, "thinking it over")
		case <-time.After(30 * time.Second):
			t.Fatal("the last turn never started streaming")
		}
	}
	answered(t, peer.Notify("session/cancel", map[string]any{"sessionId": fork.SessionID}))
	if r := <-lastTurn; r["stopReason"] != "cancelled" {
		t.Errorf("the cancelled turn answered %v", r)
	}

	// The original session's updates came twice: live and replayed.
	if n := client.kinds(sid); n["tool_call"] < 4 || n["user_message_chunk"] < 1 {
		t.Errorf("updates of %s: %v, want the tool calls live and replayed", sid, n)
	}
	if n := lines.Load(); n < 30 {
		t.Errorf("only %d messages from tandem were checked", n)
	}
}

// answered fails the test when tandem answered a call with an error.
func answered(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
