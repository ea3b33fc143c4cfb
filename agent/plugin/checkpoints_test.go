package plugin_test

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// editor is a test editor for the bundled checkpoints plugin: it applies
// the file changes tandem hands it (ACP fs/write_text_file, LSP
// workspace/applyEdit) to the disk itself and remembers them, and keeps
// the text tandem shows the user.
type editor struct {
	kind string
	peer *testenv.Peer
	pid  int    // tandem's
	stop func() // ends tandem; idempotent

	mu     sync.Mutex
	writes []string // paths the editor was asked to change
	said   strings.Builder
	cmds   string // the latest command list

	changes testenv.Changes // a notification was recorded
}

func startEditor(t *testing.T, kind, home, root string, srv *llmtest.Server) *editor {
	t.Helper()
	e := &editor{kind: kind}
	cmd := exec.Command(testenv.Tandem(t), kind)
	cmd.Env = testenv.ModelEnv(home, srv.URL)
	cmd.Dir = root
	stderr := &testenv.SyncBuffer{}
	in, out := testenv.Start(t, cmd, stderr)
	e.pid = cmd.Process.Pid
	framing := testenv.Lines
	if kind == "lsp" {
		framing = testenv.ContentLength
	}
	e.peer = testenv.NewPeer(t, out, in, framing, e.handle)
	var once sync.Once
	e.stop = func() {
		once.Do(func() {
			if kind == "lsp" {
				e.peer.Call("shutdown", nil, nil)
				e.peer.Notify("exit", nil)
			}
			e.peer.Close()
			if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
				t.Errorf("tandem %s: %v\n%s", kind, err, stderr.String())
			}
		})
	}
	t.Cleanup(e.stop)
	if kind == "acp" {
		must(t, e.peer.Call("initialize", map[string]any{"protocolVersion": 1,
			"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}}}, nil))
		return e
	}
	uri := (&url.URL{Scheme: "file", Path: root}).String()
	must(t, e.peer.Call("initialize", map[string]any{"processId": nil, "rootUri": uri,
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true,
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "delete"}}},
			"experimental": map[string]any{"tandem": map[string]any{"permissions": true}}},
		"workspaceFolders": []map[string]string{{"uri": uri, "name": "root"}}}, nil))
	must(t, e.peer.Notify("initialized", map[string]any{}))
	return e
}

func (e *editor) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch method {
	case "session/request_permission", "tandem/requestPermission":
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	case "fs/read_text_file":
		var p struct{ Path string }
		json.Unmarshal(params, &p)
		b, err := os.ReadFile(p.Path)
		if err != nil {
			return nil, &testenv.RPCError{Code: -32002, Message: "not found"}
		}
		return map[string]any{"content": string(b)}, nil
	case "fs/write_text_file":
		var p struct{ Path, Content string }
		json.Unmarshal(params, &p)
		e.writes = append(e.writes, p.Path)
		os.WriteFile(p.Path, []byte(p.Content), 0o644)
		return map[string]any{}, nil
	case "workspace/applyEdit":
		return e.applyEdit(params), nil
	case "window/showDocument":
		return map[string]any{"success": true}, nil
	}
	if strings.Contains(string(params), "agent_message_chunk") {
		e.said.Write(params)
	}
	if strings.Contains(string(params), "available_commands_update") {
		e.cmds = string(params)
	}
	e.changes.Changed()
	return nil, nil
}

// applyEdit applies an LSP WorkspaceEdit's document changes to the disk
// (ASCII text: characters are bytes).
func (e *editor) applyEdit(params json.RawMessage) any {
	var p struct {
		Edit struct {
			DocumentChanges []struct {
				Kind         string
				URI          string
				TextDocument struct{ URI string }
				Edits        []struct {
					Range struct {
						Start, End struct{ Line, Character int }
					}
					NewText string
				}
			}
		}
	}
	json.Unmarshal(params, &p)
	path := func(uri string) string { u, _ := url.Parse(uri); return u.Path }
	for _, dc := range p.Edit.DocumentChanges {
		switch dc.Kind {
		case "create":
			e.writes = append(e.writes, path(dc.URI))
			os.WriteFile(path(dc.URI), nil, 0o644)
			continue
		case "delete":
			e.writes = append(e.writes, path(dc.URI))
			os.Remove(path(dc.URI))
			continue
		}
		f := path(dc.TextDocument.URI)
		e.writes = append(e.writes, f)
		b, _ := os.ReadFile(f)
		text := string(b)
		offset := func(line, char int) int {
			o := 0
			for i := 0; i < line; i++ {
				n := strings.IndexByte(text[o:], '\n')
				if n < 0 {
					return len(text)
				}
				o += n + 1
			}
			return min(o+char, len(text))
		}
		for i := len(dc.Edits) - 1; i >= 0; i-- {
			ed := dc.Edits[i]
			a, z := offset(ed.Range.Start.Line, ed.Range.Start.Character), offset(ed.Range.End.Line, ed.Range.End.Character)
			text = text[:a] + ed.NewText + text[z:]
		}
		os.WriteFile(f, []byte(text), 0o644)
	}
	return map[string]any{"applied": true}
}

// heard returns and forgets what tandem said since the last take (the
// editor's writes stay for take). The peer delivers notifications in wire
// order before a Call returns, so after a prompt it holds the whole reply.
func (e *editor) heard() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	said := e.said.String()
	e.said.Reset()
	return said
}

// take returns and forgets what the editor saw since the last take.
func (e *editor) take() (writes []string, said string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	writes, said = e.writes, e.said.String()
	e.writes = nil
	e.said.Reset()
	return writes, said
}

func (e *editor) prompt(t *testing.T, sid, text string) {
	t.Helper()
	f := &front{kind: e.kind, peer: e.peer}
	f.prompt(t, sid, text)
}

func (e *editor) newSession(t *testing.T, root string) string {
	t.Helper()
	f := &front{kind: e.kind, peer: e.peer}
	return f.newSession(t, root, "code")
}

// load reopens a stored session in this process.
func (e *editor) load(t *testing.T, sid, root string) {
	t.Helper()
	method := "session/load"
	if e.kind == "lsp" {
		method = "tandem/loadSession"
	}
	must(t, e.peer.Call(method, map[string]any{"sessionId": sid, "cwd": root, "mcpServers": []any{}}, nil))
	e.take()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// The bundled checkpoints plugin, enabled by default: two editing turns,
// /changes lists the files, /undo reverts the last turn through the
// editor, /rewind 1 takes files and conversation back to before the first.
func TestFrontCheckpoints(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) {
			home, root := t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			a, b := filepath.Join(root, "a.txt"), filepath.Join(root, "b.txt")
			must(t, os.WriteFile(a, []byte("one\n"), 0o644))
			srv := llmtest.NewServer(t)
			ed := startEditor(t, kind, home, root, srv)
			sid := ed.newSession(t, root)
			write := func(path, content string) llmtest.Reply {
				args, _ := json.Marshal(map[string]string{"path": path, "content": content})
				return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: string(args)}}}
			}
			srv.Enqueue(write("a.txt", "two\n"), llmtest.Reply{Text: []string{"did one"}})
			ed.prompt(t, sid, "first request")
			srv.Enqueue(write("a.txt", "three\n"), write("b.txt", "new\n"), llmtest.Reply{Text: []string{"did two"}})
			ed.prompt(t, sid, "second request")
			if got := readFile(t, a) + readFile(t, b); got != "three\nnew\n" {
				t.Fatalf("after two turns: %q", got)
			}
			ed.take()

			ed.prompt(t, sid, "/changes")
			said := ed.heard()
			if !strings.Contains(said, "modified a.txt (checkpoint 1, 2)") || !strings.Contains(said, "created b.txt (checkpoint 2)") {
				t.Errorf("/changes said: %s", said)
			}
			// The bundled plugin is compiled in: it runs inside tandem,
			// not as a process of its own for every session.
			if kids := children(t, ed.pid); len(kids) > 0 {
				t.Errorf("tandem %s runs child processes with only the bundled plugin enabled: %q", kind, kids)
			}

			ed.prompt(t, sid, "/undo")
			said = ed.heard()
			writes, _ := ed.take()
			if got := readFile(t, a); got != "two\n" {
				t.Errorf("/undo left a.txt %q; it said: %s", got, said)
			}
			if _, err := os.Stat(b); !os.IsNotExist(err) {
				t.Errorf("/undo left b.txt: %v", err)
			}
			if !contains(writes, a) {
				t.Errorf("the editor was not asked to restore a.txt: %v", writes)
			}
			if !strings.Contains(said, "Not covered") {
				t.Errorf("/undo does not say what it does not cover: %s", said)
			}

			ed.prompt(t, sid, "/rewind")
			if said := ed.heard(); !strings.Contains(said, "1. first request: a.txt") || strings.Contains(said, "2. second") {
				t.Errorf("/rewind listed: %s", said)
			}
			ed.prompt(t, sid, "/rewind 1 both")
			writes, said = ed.take()
			said += ed.heard()
			if got := readFile(t, a); got != "one\n" || !contains(writes, a) {
				t.Errorf("/rewind 1 left a.txt %q (editor writes %v); it said: %s", got, writes, said)
			}
			n := len(srv.Requests())
			srv.Enqueue(llmtest.Reply{Text: []string{"fresh"}})
			ed.prompt(t, sid, "third request")
			reqs := srv.Requests()
			if len(reqs) != n+1 {
				t.Fatalf("requests: %d, want %d", len(reqs), n+1)
			}
			body := string(reqs[n].Body)
			if strings.Contains(body, "first request") || strings.Contains(body, "second request") || !strings.Contains(body, "third request") {
				t.Errorf("the request after /rewind still holds the rewound turns: %s", body)
			}
			if !strings.Contains(body, "The user reverted your earlier file edits: restored a.txt, deleted b.txt.") {
				t.Errorf("the model was not told about /undo: %s", body)
			}

			// Disabled live, its commands leave the editor's list.
			ed.mu.Lock()
			listed := ed.cmds
			ed.mu.Unlock()
			// Each command is listed once, under the name users type.
			for _, name := range []string{"undo", "rewind", "changes"} {
				if n := strings.Count(listed, `"name":"`+name+`"`); n != 1 {
					t.Errorf("/%s listed %d times: %s", name, n, listed)
				}
			}
			if strings.Contains(listed, `"name":"checkpoints:`) {
				t.Errorf("commands listed under a second name too: %s", listed)
			}
			// The namespaced name still runs the command when typed (the
			// rewind left nothing to list).
			ed.take()
			ed.prompt(t, sid, "/checkpoints:changes")
			if said := ed.heard(); !strings.Contains(said, "The agent has not changed any file") {
				t.Errorf("/checkpoints:changes said: %s", said)
			}
			cli(t, home, "disable", "checkpoints")
			// The session notices the disable in the background and sends
			// a new list: each recorded notification checks again.
			unlisted := ed.changes.Wait(10*time.Second, func() bool {
				ed.mu.Lock()
				defer ed.mu.Unlock()
				listed = ed.cmds
				return !strings.Contains(listed, `"name":"undo"`)
			})
			if !unlisted {
				t.Fatalf("still listed after disable: %s", listed)
			}
		})
	}
}

// Checkpoints outlive tandem: a session reopened by another process can
// still /undo and /rewind, and a rewind stays in the stored conversation.
func TestFrontCheckpointsAfterRestart(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) {
			home, root := t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			a := filepath.Join(root, "a.txt")
			must(t, os.WriteFile(a, []byte("one\n"), 0o644))
			srv := llmtest.NewServer(t)
			write := func(content string) llmtest.Reply {
				return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"` + content + `\n"}`}}}
			}
			ed := startEditor(t, kind, home, root, srv)
			sid := ed.newSession(t, root)
			srv.Enqueue(write("two"), llmtest.Reply{Text: []string{"ok"}}, write("three"), llmtest.Reply{Text: []string{"ok"}})
			ed.prompt(t, sid, "first request")
			ed.prompt(t, sid, "second request")
			ed.stop()

			ed = startEditor(t, kind, home, root, srv)
			ed.load(t, sid, root)
			ed.prompt(t, sid, "/undo")
			if _, said := ed.take(); readFile(t, a) != "two\n" {
				t.Fatalf("/undo after a restart left a.txt %q; it said: %s", readFile(t, a), said)
			}
			ed.prompt(t, sid, "/rewind 1")
			if _, said := ed.take(); readFile(t, a) != "one\n" {
				t.Fatalf("/rewind 1 after a restart left a.txt %q; it said: %s", readFile(t, a), said)
			}
			ed.stop()

			ed = startEditor(t, kind, home, root, srv)
			ed.load(t, sid, root)
			n := len(srv.Requests())
			srv.Enqueue(llmtest.Reply{Text: []string{"fresh"}})
			ed.prompt(t, sid, "third request")
			body := string(srv.Requests()[n].Body)
			if strings.Contains(body, "first request") || strings.Contains(body, "second request") || !strings.Contains(body, "third request") {
				t.Errorf("a reopened session forgot the rewind: %s", body)
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// children lists the command lines of pid's child processes.
func children(t *testing.T, pid int) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			out = append(out, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}
