package hooks_test

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// editor drives a real `tandem acp` over its stdio: it answers permission
// requests with answer (an option id) and keeps the requests' titles and
// the agent's message text.
type editor struct {
	kind   string // acp or lsp
	peer   *testenv.Peer
	answer string

	cmd      *exec.Cmd
	stopOnce sync.Once

	mu     sync.Mutex
	asked  []string
	agent  strings.Builder
	stderr *testenv.SyncBuffer
}

func startACP(t *testing.T, home, root string, srv *llmtest.Server, answer string, env ...string) *editor {
	t.Helper()
	return startFront(t, "acp", home, root, srv, answer, env...)
}

// startFront starts `tandem acp` or `tandem lsp` (kind).
func startFront(t *testing.T, kind, home, root string, srv *llmtest.Server, answer string, env ...string) *editor {
	t.Helper()
	testenv.Program(t, "sh")
	e := &editor{kind: kind, answer: answer, stderr: &testenv.SyncBuffer{}}
	cmd := exec.Command(testenv.Tandem(t), kind)
	cmd.Env = append(testenv.ModelEnv(home, srv.URL), env...)
	cmd.Dir = root
	in, out := testenv.Start(t, cmd, e.stderr)
	e.cmd = cmd
	framing := testenv.Lines
	if kind == "lsp" {
		framing = testenv.ContentLength
	}
	e.peer = testenv.NewPeer(t, out, in, framing, e.handle)
	t.Cleanup(func() { e.stop(t) })
	if kind == "acp" {
		must(t, e.peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}, nil))
		return e
	}
	uri := (&url.URL{Scheme: "file", Path: root}).String()
	must(t, e.peer.Call("initialize", map[string]any{"processId": nil, "rootUri": uri,
		"capabilities":     map[string]any{"experimental": map[string]any{"tandem": map[string]any{"permissions": true}}},
		"workspaceFolders": []map[string]string{{"uri": uri, "name": "root"}}}, nil))
	must(t, e.peer.Notify("initialized", map[string]any{}))
	return e
}

// stop closes tandem's stdin, as an editor quitting does, and waits for it
// to exit.
func (e *editor) stop(t *testing.T) {
	e.stopOnce.Do(func() {
		if e.kind == "lsp" {
			e.peer.Call("shutdown", nil, nil)
			e.peer.Notify("exit", nil)
		}
		e.peer.Close()
		if err := testenv.WaitExit(e.cmd, 15*time.Second); err != nil {
			t.Errorf("tandem acp: %v\n%s", err, e.stderr.String())
		}
	})
}

func (e *editor) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	var p struct {
		ToolCall struct{ Title string } `json:"toolCall"`
		Update   struct {
			SessionUpdate string `json:"sessionUpdate"`
			Content       struct{ Text string }
		} `json:"update"`
	}
	json.Unmarshal(params, &p)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch method {
	case "session/request_permission", "tandem/requestPermission":
		e.asked = append(e.asked, p.ToolCall.Title)
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": e.answer}}, nil
	case "session/update":
		if p.Update.SessionUpdate == "agent_message_chunk" {
			e.agent.WriteString(p.Update.Content.Text)
		}
	}
	return nil, nil
}

func (e *editor) said() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.agent.String()
}

func (e *editor) titles() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.asked...)
}

func (e *editor) newSession(t *testing.T, root, mode string) string {
	t.Helper()
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	if e.kind == "lsp" {
		must(t, e.peer.Call("tandem/newSession", map[string]any{"cwd": root, "mode": mode}, &ns))
		return ns.SessionID
	}
	must(t, e.peer.Call("session/new", map[string]any{"cwd": root, "mcpServers": []any{}}, &ns))
	must(t, e.peer.Call("session/set_mode", map[string]any{"sessionId": ns.SessionID, "modeId": mode}, nil))
	return ns.SessionID
}

func (e *editor) prompt(t *testing.T, sid, text string) string {
	t.Helper()
	var r struct {
		StopReason string `json:"stopReason"`
	}
	method := "session/prompt"
	if e.kind == "lsp" {
		method = "tandem/prompt"
	}
	must(t, e.peer.Call(method, map[string]any{"sessionId": sid, "prompt": []map[string]string{{"type": "text", "text": text}}}, &r))
	return r.StopReason
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// script is the absolute path of a hook script under testdata.
func script(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hooksFile writes a settings file whose "hooks" section is hooks.
func hooksFile(t *testing.T, path string, hooks map[string]any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// group is one matcher group running commands.
func group(matcher string, commands ...string) map[string]any {
	var hs []map[string]any
	for _, c := range commands {
		hs = append(hs, map[string]any{"type": "command", "command": c, "timeout": 20})
	}
	return map[string]any{"matcher": matcher, "hooks": hs}
}

// dirs returns a TANDEM_HOME, a session root and a place for hook logs.
func dirs(t *testing.T) (home, root, logs string) {
	home, root, logs = t.TempDir(), t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	return home, root, logs
}
