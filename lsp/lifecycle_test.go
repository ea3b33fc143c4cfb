package lsp_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

func TestLifecycle(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	c := startClient(t, fakeModelEnv(t, nil))

	if _, err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(root + "/a.go")}}); err == nil || err.Code != -32002 {
		t.Fatalf("request before initialize: got %v, want ServerNotInitialized (-32002)", err)
	}
	res := c.initialize(root, map[string]any{})
	caps := res["capabilities"].(map[string]any)
	if got := caps["positionEncoding"]; got != "utf-16" {
		t.Errorf("positionEncoding without an offer = %v, want utf-16", got)
	}
	for _, p := range []string{"documentSymbolProvider", "workspaceSymbolProvider"} {
		if caps[p] != true {
			t.Errorf("%s = %v, want true (the method is served)", p, caps[p])
		}
	}
	// Queued prompts are offered as ACP offers them (_meta.tandem).
	if exp, _ := caps["experimental"].(map[string]any); exp == nil || exp["tandem"] == nil || exp["tandem"].(map[string]any)["promptQueueing"] != true {
		t.Errorf("experimental = %v, want tandem.promptQueueing true", caps["experimental"])
	}
	sync := caps["textDocumentSync"].(map[string]any)
	if sync["change"] != 2.0 || sync["openClose"] != true {
		t.Errorf("textDocumentSync = %v, want incremental with open/close", sync)
	}
	if _, err := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); err == nil || err.Code != -32600 {
		t.Errorf("second initialize: got %v, want InvalidRequest", err)
	}
	for _, m := range []string{"no/such/method", "textDocument/hover"} {
		if _, err := c.call(m, map[string]any{}); err == nil || err.Code != -32601 {
			t.Errorf("%s: got %v, want MethodNotFound (-32601)", m, err)
		}
	}
	if _, err := c.call("tandem/prompt", map[string]any{"sessionId": 7}); err == nil || err.Code != -32602 {
		t.Errorf("tandem/prompt with a numeric sessionId: got %v, want InvalidParams (-32602)", err)
	}
	res2, err := c.call("shutdown", nil)
	if err != nil || string(res2) != "null" {
		t.Fatalf("shutdown = %s, %v; want null", res2, err)
	}
	if _, err := c.call("tandem/listSessions", map[string]any{}); err == nil || err.Code != -32600 {
		t.Errorf("request after shutdown: got %v, want InvalidRequest", err)
	}
	c.notify("exit", nil)
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit after shutdown: code %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		end  func(c *client)
	}{
		{"exit notification", func(c *client) { c.notify("exit", nil) }},
		{"stdin closed", func(c *client) { c.stdin.Close() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := startClient(t, fakeModelEnv(t, nil))
			c.initialize(t.TempDir(), map[string]any{})
			tc.end(c)
			if code := c.waitExit(); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
		})
	}
}

func TestPositionEncodingNegotiation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		offered []string
		want    string
	}{
		{nil, "utf-16"},
		{[]string{"utf-16"}, "utf-16"},
		{[]string{"utf-32", "utf-16"}, "utf-16"},
		{[]string{"utf-16", "utf-8"}, "utf-8"},
	} {
		c := startClient(t, fakeModelEnv(t, nil))
		res := c.initialize(t.TempDir(), map[string]any{"general": map[string]any{"positionEncodings": tc.offered}})
		if got := res["capabilities"].(map[string]any)["positionEncoding"]; got != tc.want {
			t.Errorf("offered %v: negotiated %v, want %s", tc.offered, got, tc.want)
		}
	}
}

// TestBadFrames sends malformed frames and bodies that are not JSON; each
// gets a parse error and the server keeps serving. (JSON that is not a
// valid request is TestInvalidRequests'.)
func TestBadFrames(t *testing.T) {
	t.Parallel()
	c := startClient(t, fakeModelEnv(t, nil))
	root := t.TempDir()
	c.initialize(root, map[string]any{})

	bad := []struct {
		name, raw string
	}{
		{"invalid JSON body", frame(`{"jsonrp`)},
		{"header without colon", "garbage header\r\n\r\n"},
		{"non-numeric length", "Content-Length: ten\r\n\r\n"},
		{"missing length", "Content-Type: application/json\r\n\r\n"},
	}
	for _, b := range bad {
		before := len(c.messages())
		c.writeRaw(b.raw)
		m := c.waitMsgFrom(before, "error for "+b.name, func(m rpcMsg) bool { return m.Error != nil })
		if m.Error.Code != -32700 || string(m.ID) != "null" {
			t.Errorf("%s: got error %+v id %s, want ParseError with id null", b.name, m.Error, m.ID)
		}
	}
	// Still alive and still serving requests.
	var syms []any
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(root + "/none.txt")}}, &syms)
	if _, err := c.call("shutdown", nil); err != nil {
		t.Fatal(err)
	}
	c.notify("exit", nil)
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit code %d after bad frames, want 0", code)
	}
	if strings.Contains(c.stderr.String(), "panic") {
		t.Errorf("stderr mentions a panic:\n%s", c.stderr.String())
	}
}

// An editor that stops the server with SIGTERM, its pipe still open, must
// see it exit: a blocked stdin read does not hold the process.
func TestSIGTERMWithStdinOpen(t *testing.T) {
	cmd := exec.Command(testenv.Tandem(t), "lsp")
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+t.TempDir())
	stdin, stdout := testenv.Start(t, cmd, nil)
	defer stdin.Close()
	// Answered, it is back in its read of stdin.
	peer := testenv.NewPeer(t, stdout, stdin, testenv.ContentLength, nil)
	if err := peer.Call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if errors.Is(testenv.WaitExit(cmd, 5*time.Second), testenv.ErrNoExit) {
		t.Fatal("tandem lsp ignored SIGTERM while its stdin was open")
	}
}

// TestInitializationOptionsMode: an unknown mode in initializationOptions
// is refused at initialize, naming the field.
func TestInitializationOptionsMode(t *testing.T) {
	t.Parallel()
	c := startClient(t, fakeModelEnv(t, nil))
	_, err := c.call("initialize", map[string]any{"capabilities": map[string]any{}, "initializationOptions": map[string]any{"mode": "yolo"}})
	if err == nil || err.Code != -32602 || !strings.Contains(err.Message, "initializationOptions.mode") {
		t.Fatalf("initialize with mode yolo: %v", err)
	}
}
