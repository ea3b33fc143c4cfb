package acp

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Secrets planted for TestKeyInProviderErrorsNeverLeaves. configKey is the
// OpenAI key, set in config.json only (the environment has none), so only
// a redactor fed the config file knows it. strayKey is a key tandem was
// never given, of OpenAI's shape but shorter than an issued one: a server
// echoing it is caught by the shape alone.
const (
	configKey = "sk-proj-PLANTEDconfig0123"
	strayKey  = "sk-proj-STRAYab12"
)

// Every error path of a provider, driven through the real binary with
// TANDEM_LOG=debug, hides both keys: an HTTP error body, an error event in
// the stream, errors retried until tandem gives up, a transport error
// quoting a URL that holds the key, and a key cut in two by a thought
// chunk in the middle of the reply. Neither key (nor either half of the
// cut one) is in anything tandem wrote: stdout, stderr, $TANDEM_HOME.
func TestKeyInProviderErrorsNeverLeaves(t *testing.T) {
	echo := "the server says: key " + configKey + " rejected; try " + strayKey
	cut := len(configKey) / 2
	sse := func(delta string) string { return "data: {\"choices\":[{\"index\":0,\"delta\":" + delta + "}]}\n\n" }
	cases := []struct {
		name    string
		reply   llmtest.Reply
		baseURL func(srv *llmtest.Server) string // nil: the fake server's
		failed  bool                             // the prompt fails
	}{
		{name: "HTTP error body", reply: llmtest.Reply{Status: 400, Message: echo}, failed: true},
		{name: "error event in the stream", reply: llmtest.Reply{Text: []string{"partial "}, StreamError: echo}, failed: true},
		{name: "retried until given up", reply: llmtest.Reply{Status: 503, Times: -1, RetryAfter: "0", Message: echo}, failed: true},
		{name: "transport error quoting the URL", failed: true, baseURL: func(*llmtest.Server) string {
			return "http://" + closedPort(t) + "/" + configKey + "/v1"
		}},
		{name: "key cut by a thought chunk", reply: llmtest.Reply{Raw: sse(`{"content":"the key is `+configKey[:cut]+`"}`) +
			sse(`{"reasoning_content":"thinking"}`) + sse(`{"content":"`+configKey[cut:]+` done"}`) +
			"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Handle(func(*llmtest.Request) llmtest.Reply { return c.reply })
			base := srv.BaseURL(llmtest.OpenAI)
			if c.baseURL != nil {
				base = c.baseURL(srv)
			}
			home := t.TempDir()
			cfg, _ := json.Marshal(map[string]string{"provider": "openai", "openaiApiKey": configKey, "openaiBaseUrl": base})
			if err := os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600); err != nil {
				t.Fatal(err)
			}
			out, stderr, err := promptOnce(t, home)
			if (err != nil) != c.failed {
				t.Errorf("the prompt's error: %v, want failed=%v", err, c.failed)
			}
			all := out + stderr + filesUnder(t, home, "config.json")
			for _, s := range []string{configKey, configKey[:cut], configKey[cut:], strayKey, "STRAYab12"} {
				if strings.Contains(all, s) {
					t.Errorf("%q left tandem", s)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", out, stderr)
			}
		})
	}
}

// promptOnce runs `tandem acp` with home as TANDEM_HOME and debug logging,
// opens a session and sends one prompt, and returns every byte tandem wrote
// to stdout and stderr once it has exited, with the prompt's error. env
// is added last, so it wins.
func promptOnce(t *testing.T, home string, env ...string) (stdout, stderr string, promptErr error) {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	// Later entries win: no key, provider or base URL of the developer's
	// environment reaches the child, so config.json decides.
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+home, "TANDEM_LOG=debug", "TANDEM_PROVIDER=",
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=", "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
	cmd.Env = append(cmd.Env, env...)
	var errBuf, outBuf testenv.SyncBuffer
	stdin, out := testenv.Start(t, cmd, &errBuf)
	peer := testenv.NewPeer(t, io.TeeReader(out, &outBuf), stdin, testenv.Lines,
		func(string, json.RawMessage) (any, *testenv.RPCError) { return nil, nil })
	if err := peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	if err := peer.Call("session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}, &ns); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	promptErr = peer.Call("session/prompt", map[string]any{"sessionId": ns.SessionID,
		"prompt": []map[string]string{{"type": "text", "text": "go"}}}, nil)
	peer.Close()
	if err := testenv.WaitExit(cmd, 20*time.Second); err != nil {
		t.Errorf("tandem acp exited with %v", err)
	}
	<-peer.Done()
	return outBuf.String(), errBuf.String(), promptErr
}

// filesUnder is the content of every file under dir but those named skip.
func filesUnder(t *testing.T, dir string, skip ...string) string {
	t.Helper()
	var all strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, s := range skip {
			if p == filepath.Join(dir, s) {
				return nil
			}
		}
		b, err := os.ReadFile(p)
		all.Write(b)
		return err
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return all.String()
}

// closedPort is a local address nothing listens on: connecting fails at
// once.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
