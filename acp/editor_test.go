package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// editor is the ACP client the integration tests play: it keeps unsaved
// buffers, records writes instead of touching disk, answers permission
// requests by a script, and runs terminals as real local processes.
type editor struct {
	t testing.TB

	mu          sync.Mutex
	seq         int               // order of everything below
	buffers     map[string]string // unsaved buffers by absolute path
	reads       []string
	writes      []sdk.WriteTextFileRequest
	permissions []sdk.RequestPermissionRequest
	updates     map[string][]recorded
	terminals   map[string]*term
	created     []sdk.CreateTerminalRequest
	released    []string
	answer      func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome
	onUpdate    func(sessionID string, u recorded)
	// holdPermission makes permission requests wait until the agent
	// withdraws them; asked is signalled when one arrives.
	holdPermission bool
	asked          chan struct{}
	// wire lists what tandem wrote, in wire order: the SDK handles
	// requests and notifications on different goroutines, so handler
	// order is not wire order.
	wire      []string
	withdrawn int
	killed    []string
	changes   testenv.Changes // something above was recorded

	// elicit answers elicitation/create (mcp_server_features_test.go).
	elicit func(sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse
	// completed records elicitation/complete (mcp_elicit_url_test.go).
	completed *completions
}

// recorded is one session/update as the client got it.
type recorded struct {
	seq  int
	raw  string
	kind string
	u    agent.Update // zero when the agent model has no such update (config_option_update)
}

type term struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
	code int
}

var _ sdk.Client = (*editor)(nil)

func newEditor(t testing.TB) *editor {
	return &editor{
		t:         t,
		buffers:   map[string]string{},
		updates:   map[string][]recorded{},
		terminals: map[string]*term{},
		answer: func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
			return sdk.NewRequestPermissionOutcomeSelected("allow_once")
		},
	}
}

func (e *editor) ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	e.mu.Lock()
	e.seq++
	e.reads = append(e.reads, p.Path)
	buf, ok := e.buffers[p.Path]
	e.mu.Unlock()
	if ok {
		return sdk.ReadTextFileResponse{Content: buf}, nil
	}
	data, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: string(data)}, nil
}

// WriteTextFile keeps the content as an unsaved buffer, as an editor with
// review would, so tests can tell it from a write to disk.
func (e *editor) WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	e.writes = append(e.writes, p)
	e.buffers[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (e *editor) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.seq++
	e.permissions = append(e.permissions, p)
	answer, hold, asked := e.answer, e.holdPermission, e.asked
	e.mu.Unlock()
	if asked != nil {
		asked <- struct{}{}
	}
	if hold {
		<-ctx.Done() // the SDK cancels ctx when tandem sends $/cancel_request
		e.mu.Lock()
		e.withdrawn++
		e.mu.Unlock()
		e.changes.Changed()
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: answer(p)}, nil
}

func (e *editor) SessionUpdate(ctx context.Context, n sdk.SessionNotification) error {
	raw, err := json.Marshal(n.Update)
	if err != nil {
		e.t.Errorf("client could not re-encode an update: %v", err)
		return nil
	}
	var head struct {
		Kind string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(raw, &head)
	r := recorded{raw: string(raw), kind: head.Kind}
	_ = json.Unmarshal(raw, &r.u)
	e.mu.Lock()
	e.seq++
	r.seq = e.seq
	e.updates[string(n.SessionId)] = append(e.updates[string(n.SessionId)], r)
	hook := e.onUpdate
	e.mu.Unlock()
	e.changes.Changed()
	if hook != nil {
		hook(string(n.SessionId), r)
	}
	return nil
}

func (e *editor) CreateTerminal(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	cmd := exec.Command(p.Command, p.Args...)
	if p.Cwd != nil {
		cmd.Dir = *p.Cwd
	}
	out := &bytes.Buffer{}
	t := &term{cmd: cmd, out: out, done: make(chan struct{})}
	var outMu sync.Mutex
	cmd.Stdout = lockedWriter{&outMu, out}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return sdk.CreateTerminalResponse{}, err
	}
	go func() {
		_ = cmd.Wait()
		t.code = cmd.ProcessState.ExitCode()
		close(t.done)
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	id := fmt.Sprintf("term-%d", len(e.terminals)+1)
	e.terminals[id] = t
	e.created = append(e.created, p)
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (e *editor) terminal(id string) (*term, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.terminals[id]
	if !ok {
		return nil, sdk.NewInvalidParams(map[string]any{"error": "no terminal " + id})
	}
	return t, nil
}

func (e *editor) KillTerminal(ctx context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := e.terminal(p.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	_ = t.cmd.Process.Kill()
	e.mu.Lock()
	e.killed = append(e.killed, p.TerminalId)
	e.mu.Unlock()
	return sdk.KillTerminalResponse{}, nil
}

func (e *editor) TerminalOutput(ctx context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := e.terminal(p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	select {
	case <-t.done:
	case <-time.After(100 * time.Millisecond):
	}
	return sdk.TerminalOutputResponse{Output: t.out.String()}, nil
}

func (e *editor) ReleaseTerminal(ctx context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	e.mu.Lock()
	e.released = append(e.released, p.TerminalId)
	e.mu.Unlock()
	return sdk.ReleaseTerminalResponse{}, nil
}

func (e *editor) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := e.terminal(p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
		code := t.code
		return sdk.WaitForTerminalExitResponse{ExitCode: &code}, nil
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
}

// sessionUpdates returns a copy of what a session received so far.
func (e *editor) sessionUpdates(sid sdk.SessionId) []recorded {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]recorded(nil), e.updates[string(sid)]...)
}

// agentText joins the agent_message_chunk texts a session received.
func (e *editor) agentText(sid sdk.SessionId) string {
	var b strings.Builder
	for _, r := range e.sessionUpdates(sid) {
		if r.u.Type == agent.AgentMessageChunk && r.u.Chunk != nil {
			b.WriteString(r.u.Chunk.Text)
		}
	}
	return b.String()
}

// tandemProcess is a `tandem acp` child with an SDK client connection.
type tandemProcess struct {
	conn   *sdk.ClientSideConnection
	stdin  io.Closer
	cmd    *exec.Cmd
	stderr *testenv.SyncBuffer
	ed     *editor
	killed atomic.Bool // a crash test killed it on purpose
}

// startTandem spawns the real binary against the fake model server. home is
// TANDEM_HOME, shared by processes that must see the same sessions.
func startTandem(t *testing.T, srv *llmtest.Server, home string, ed *editor) *tandemProcess {
	t.Helper()
	return startCmd(t, exec.Command(testenv.Tandem(t), "acp"), srv, home, ed)
}

// startCmd is startTandem for a command line that runs `tandem acp`
// (possibly through a wrapper that sets limits first).
func startCmd(t *testing.T, cmd *exec.Cmd, srv *llmtest.Server, home string, ed *editor) *tandemProcess {
	t.Helper()
	if cmd.Env == nil {
		cmd.Env = testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic))
	}
	if !slices.ContainsFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "TANDEM_LOG=") }) {
		cmd.Env = append(cmd.Env, "TANDEM_LOG=debug") // steps the wire does not show, for tests to wait on
	}
	p := &tandemProcess{cmd: cmd, stderr: &testenv.SyncBuffer{}, ed: ed}
	stdin, stdout := testenv.Start(t, cmd, p.stderr)
	p.stdin = stdin
	tap := newRequestTap(stdin)
	p.conn = sdk.NewClientSideConnection(ed, tap, &wireTap{r: stdout, ed: ed, check: loadWireSchema(t).async(t, tap)})
	p.conn.SetLogger(slog.New(slog.DiscardHandler))
	t.Cleanup(func() {
		stdin.Close()
		switch err := testenv.WaitExit(cmd, 10*time.Second); {
		case errors.Is(err, testenv.ErrNoExit):
			t.Errorf("tandem acp did not exit 10s after stdin closed")
		case err != nil && !p.killed.Load():
			t.Errorf("tandem acp exited with %v", err)
		}
		if t.Failed() {
			t.Logf("tandem stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

// initialize runs initialize with the given client capabilities.
func (p *tandemProcess) initialize(t *testing.T, fs, terminal bool) {
	t.Helper()
	_, err := p.conn.Initialize(ctxT(t), sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{
			Fs:       sdk.FileSystemCapabilities{ReadTextFile: fs, WriteTextFile: fs},
			Terminal: terminal,
		},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

func (p *tandemProcess) newSession(t *testing.T, cwd string) sdk.SessionId {
	t.Helper()
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	return r.SessionId
}

func (p *tandemProcess) prompt(t *testing.T, sid sdk.SessionId, text string) (sdk.StopReason, error) {
	t.Helper()
	r, err := p.conn.Prompt(ctxT(t), sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	return r.StopReason, err
}

// ctxT bounds one protocol call in a test.
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// workspace makes a temporary directory with the given files.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// wireTap records, in the order tandem wrote them, the tool-call updates
// and permission requests on the stream the client reads (into ed, unless
// nil), after handing each line to check.
type wireTap struct {
	r       io.Reader
	ed      *editor
	partial []byte
	// check queues every line for the check against the ACP schema.
	check func(line []byte)
}

func (w *wireTap) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	w.partial = append(w.partial, p[:n]...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := w.partial[:i]
		w.partial = w.partial[i+1:]
		if w.check != nil {
			w.check(line)
		}
		if w.ed == nil {
			continue // a tap that only checks
		}
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Update struct {
					Kind   string `json:"sessionUpdate"`
					ID     string `json:"toolCallId"`
					Status string `json:"status"`
				} `json:"update"`
				ToolCall struct {
					ID string `json:"toolCallId"`
				} `json:"toolCall"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &msg) != nil {
			continue
		}
		// Entries: "<kind>:<id>", "permission:<id>", and "status:<status>:<id>"
		// for every update that sets a status.
		var entries []string
		switch u := msg.Params.Update; {
		case msg.Method == "session/update" && u.ID != "":
			entries = append(entries, u.Kind+":"+u.ID)
			if u.Status != "" {
				entries = append(entries, "status:"+u.Status+":"+u.ID)
			}
		case msg.Method == "session/request_permission":
			entries = append(entries, "permission:"+msg.Params.ToolCall.ID)
		default:
			continue
		}
		w.ed.mu.Lock()
		w.ed.wire = append(w.ed.wire, entries...)
		w.ed.mu.Unlock()
	}
	return n, err
}
