package acp

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestSwitchesOverACP drives `tandem acp` with the session's switches
// (the command sandbox, auto-compaction): a client that advertises
// session.configOptions.boolean gets them as boolean options and sets them
// with boolean values, a client of the plain stable schema gets on/off
// selects. Each change is echoed as config_option_update and changes what
// the session does (no compaction before an over-full request; full-auto
// asks before a command, which runs unconfined), survives a restart of tandem through
// session/load, and is kept by session/fork. Every message tandem writes
// is checked against the schema.
func TestSwitchesOverACP(t *testing.T) {
	if ok, why := sandbox.Available(); !ok {
		if testenv.Strict() {
			t.Fatalf("the sandbox switch needs Landlock: %s", why)
		}
		t.Skipf("the sandbox switch needs Landlock: %s", why)
	}
	base := map[string]any{"fs": map[string]bool{"readTextFile": false, "writeTextFile": false}, "terminal": false}
	withBool := map[string]any{"fs": base["fs"], "terminal": false,
		"session": map[string]any{"configOptions": map[string]any{"boolean": map[string]any{}}}}
	t.Run("boolean client", func(t *testing.T) { runSwitches(t, withBool, true) })
	t.Run("select client", func(t *testing.T) { runSwitches(t, base, false) })
}

// switchClient answers tandem's permission requests (allowing once) and
// records the updates and the asks' titles. The peer hands it messages in
// wire order and a Call returns after those written before its answer, so
// what take returns after a Call is complete.
type switchClient struct {
	mu      sync.Mutex
	updates []map[string]any
	asks    []string
	echoes  chan []any  // each config_option_update's options
	titles  chan string // each session_info_update's title
}

func (c *switchClient) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	var p struct {
		Update   map[string]any `json:"update"`
		ToolCall struct {
			Title string `json:"title"`
		} `json:"toolCall"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &testenv.RPCError{Code: -32602, Message: err.Error()}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch method {
	case "session/update":
		c.updates = append(c.updates, p.Update)
		if p.Update["sessionUpdate"] == "config_option_update" {
			opts, _ := p.Update["configOptions"].([]any)
			c.echoes <- opts
		}
		if p.Update["sessionUpdate"] == "session_info_update" {
			title, _ := p.Update["title"].(string)
			c.titles <- title
		}
		return nil, nil
	case "session/request_permission":
		c.asks = append(c.asks, p.ToolCall.Title)
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	}
	return nil, &testenv.RPCError{Code: -32601, Message: "the test client does not serve " + method}
}

// take returns the updates and asks so far and forgets them.
func (c *switchClient) take() ([]map[string]any, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, a := c.updates, c.asks
	c.updates, c.asks = nil, nil
	return u, a
}

// switchTandem is one `tandem acp` process on home, initialized with caps,
// with a window the system prompt alone overfills: every request is past
// the compaction threshold.
func switchTandem(t *testing.T, home, url string, caps map[string]any) (*testenv.Peer, *switchClient, func()) {
	return peerTandem(t, home, url, caps, "TANDEM_CONTEXT_WINDOW=1000")
}

// peerTandem is one `tandem acp` process on home with env added, driven
// by a raw JSON-RPC peer whose every message is checked against the
// schema, initialized with caps.
func peerTandem(t *testing.T, home, url string, caps map[string]any, env ...string) (*testenv.Peer, *switchClient, func()) {
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(testenv.ModelEnv(home, url), env...)
	stderr := &testenv.SyncBuffer{}
	stdin, stdout := testenv.Start(t, cmd, stderr)
	tap := newRequestTap(stdin)
	check := loadWireSchema(t).async(t, tap)
	client := &switchClient{echoes: make(chan []any, 64), titles: make(chan string, 256)}
	peer := testenv.NewPeer(t, &wireTap{r: stdout, check: check}, tap, testenv.Lines, client.handle)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			peer.Close()
			if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
				t.Errorf("tandem acp: %v", err)
			}
			if t.Failed() {
				t.Logf("tandem stderr:\n%s", stderr.String())
			}
		})
	}
	t.Cleanup(stop)
	answered(t, peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, nil))
	return peer, client, stop
}

// peerPrompt sends text as a prompt to session sid and expects the turn
// to end normally.
func peerPrompt(t *testing.T, peer *testenv.Peer, sid, text string) {
	t.Helper()
	var r map[string]any
	answered(t, peer.Call("session/prompt", map[string]any{"sessionId": sid,
		"prompt": []any{map[string]any{"type": "text", "text": text}}}, &r))
	if r["stopReason"] != "end_turn" {
		t.Fatalf("%q ended %v", text, r)
	}
}

type optionsResult struct {
	ConfigOptions []map[string]any `json:"configOptions"`
}

// switchState finds switch id in opts: whether it is on, and whether it
// came as a boolean option (else as an on/off select).
func switchState(t *testing.T, opts []map[string]any, id string) (on, boolean bool) {
	t.Helper()
	for _, o := range opts {
		if o["id"] != id {
			continue
		}
		switch o["type"] {
		case "boolean":
			v, ok := o["currentValue"].(bool)
			if !ok {
				t.Fatalf("%s: boolean option without a boolean value: %v", id, o)
			}
			return v, true
		case "select":
			v := o["currentValue"]
			if v != "on" && v != "off" {
				t.Fatalf("%s: select value %v, want on or off", id, v)
			}
			return v == "on", false
		}
		t.Fatalf("%s: option of type %v", id, o["type"])
	}
	t.Fatalf("no %s option in %v", id, opts)
	return false, false
}

func runSwitches(t *testing.T, caps map[string]any, boolean bool) {
	home, ws := t.TempDir(), workspace(t, nil)
	// The sandbox shows $TANDEM_HOME/sessions as an empty directory: the
	// session's own id is listed only by a command that runs unconfined.
	listSessions := fmt.Sprintf(`{"command":%q}`, "ls "+filepath.Join(home, "sessions"))
	srv := llmtest.NewServer(t)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		last := r.Messages[len(r.Messages)-1]
		switch {
		case r.System == compact.SummarySystem:
			return llmtest.Reply{Text: []string{"## Goal and constraints\nA summary."}}
		case last.Content[0].Type == llm.PartToolResult:
			return llmtest.Reply{Text: []string{"ran it"}}
		case strings.Contains(r.LastUserText(), "run ls"):
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("c%d", r.N), Name: "run_command", Args: listSessions}}}
		}
		return llmtest.Reply{Text: []string{"ok"}}
	})
	url := srv.BaseURL(llmtest.Anthropic)
	peer, client, stop := switchTandem(t, home, url, caps)

	var created struct {
		SessionID string `json:"sessionId"`
		optionsResult
	}
	answered(t, peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &created))
	sid := created.SessionID
	for _, id := range []string{"sandbox", "auto_compact"} {
		if on, b := switchState(t, created.ConfigOptions, id); !on || b != boolean {
			t.Errorf("new session's %s: on %v, boolean %v; want on, boolean %v", id, on, b, boolean)
		}
	}
	prompt := func(text string) { t.Helper(); peerPrompt(t, peer, sid, text) }
	compacted := func(updates []map[string]any) bool {
		for _, u := range updates {
			if u["sessionUpdate"] == "tool_call" && u["title"] == "Compacting conversation…" {
				return true
			}
		}
		return false
	}
	set := func(id string, on bool) {
		t.Helper()
		params := map[string]any{"sessionId": sid, "configId": id}
		if boolean {
			params["type"], params["value"] = "boolean", on
		} else {
			params["value"] = map[bool]string{true: "on", false: "off"}[on]
		}
		var r optionsResult
		answered(t, peer.Call("session/set_config_option", params, &r))
		if got, _ := switchState(t, r.ConfigOptions, id); got != on {
			t.Errorf("set_config_option %s=%v answered it %v", id, on, got)
		}
		// The echo is the update whose options show the new value (a mode
		// change before it has its own).
		for echoed := false; !echoed; {
			select {
			case echo := <-client.echoes:
				var opts []map[string]any
				b, _ := json.Marshal(echo)
				_ = json.Unmarshal(b, &opts)
				got, _ := switchState(t, opts, id)
				echoed = got == on
			case <-time.After(10 * time.Second):
				t.Fatalf("set_config_option %s=%v was not echoed as config_option_update", id, on)
			}
		}
		client.take()
	}

	// Auto-compaction on: a request past the threshold compacts first.
	prompt("hello")
	if u, _ := client.take(); !compacted(u) {
		t.Errorf("with auto-compaction on, an over-full request did not compact: %v", u)
	}
	set("auto_compact", false)
	before := len(srv.Requests())
	prompt("hello again")
	if u, _ := client.take(); compacted(u) {
		t.Errorf("with auto-compaction off, the session compacted by itself: %v", u)
	}
	for _, r := range srv.Requests()[before:] {
		if r.System == compact.SummarySystem {
			t.Error("with auto-compaction off, the model was asked for a summary")
		}
	}

	// Full-auto runs a sandboxed command unasked; with the sandbox off it
	// asks, and says why.
	answered(t, peer.Call("session/set_config_option", map[string]any{"sessionId": sid, "configId": "mode", "value": "full-auto"}, nil))
	prompt("run ls, sandboxed")
	updates, asks := client.take()
	if len(asks) != 0 {
		t.Errorf("full-auto with the sandbox on asked: %q", asks)
	}
	if b, _ := json.Marshal(updates); strings.Contains(string(b), sid) {
		t.Errorf("a sandboxed command listed the hidden sessions directory: %s", b)
	}
	set("sandbox", false)
	prompt("run ls, unsandboxed")
	updates, asks = client.take()
	if len(asks) != 1 || !strings.Contains(asks[0], "sandbox is turned off in this session") {
		t.Errorf("full-auto with the sandbox off: asks %q, want one naming the switch", asks)
	}
	if b, _ := json.Marshal(updates); !strings.Contains(string(b), sid) {
		t.Errorf("with the sandbox off, the command still ran confined: %s", b)
	}

	// A fresh tandem loads the session with both switches off; a fork
	// keeps them.
	stop()
	peer, _, _ = switchTandem(t, home, url, caps)
	var loaded optionsResult
	answered(t, peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, &loaded))
	var forked struct {
		SessionID string `json:"sessionId"`
		optionsResult
	}
	answered(t, peer.Call("session/fork", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, &forked))
	for _, id := range []string{"sandbox", "auto_compact"} {
		if on, b := switchState(t, loaded.ConfigOptions, id); on || b != boolean {
			t.Errorf("loaded session's %s: on %v, boolean %v; want off, boolean %v", id, on, b, boolean)
		}
		if on, _ := switchState(t, forked.ConfigOptions, id); on {
			t.Errorf("forked session's %s is on, want off as in its parent", id)
		}
	}
}
