package plugin_test

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/plugin"
	"github.com/tandemhq/tandem/internal/testenv"
)

// front is an editor driving a real `tandem acp` or `tandem lsp` over its
// stdio, answering every permission request with "allow once".
type front struct {
	kind string
	peer *testenv.Peer
	cmd  *exec.Cmd

	mu      sync.Mutex
	asked   []string          // titles of the permission requests
	configs []json.RawMessage // configOptions of each ACP config_option_update
	started []string          // titles of the ACP tool_call updates
	offered [][]string        // command names of each available_commands_update

	// onStarted, when set, sees each tool_call title as it arrives.
	onStarted func(title string)

	changes testenv.Changes // a session/update was recorded
}

var fronts = []string{"acp", "lsp"}

func startFront(t *testing.T, kind, home, root string, srv *llmtest.Server) *front {
	t.Helper()
	python(t)
	f := &front{kind: kind}
	cmd := exec.Command(testenv.Tandem(t), kind)
	cmd.Env = testenv.ModelEnv(home, srv.URL)
	cmd.Dir = root
	stderr := &testenv.SyncBuffer{}
	in, out := testenv.Start(t, cmd, stderr)
	f.cmd = cmd
	framing := testenv.Lines
	if kind == "lsp" {
		framing = testenv.ContentLength
	}
	f.peer = testenv.NewPeer(t, out, in, framing, f.handle)
	t.Cleanup(func() {
		if kind == "lsp" {
			f.peer.Call("shutdown", nil, nil)
			f.peer.Notify("exit", nil)
		}
		f.peer.Close()
		if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
			t.Errorf("tandem %s: %v\n%s", kind, err, stderr.String())
		}
	})
	if kind == "acp" {
		must(t, f.peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}, nil))
	} else {
		uri := (&url.URL{Scheme: "file", Path: root}).String()
		must(t, f.peer.Call("initialize", map[string]any{"processId": nil, "rootUri": uri, "capabilities": map[string]any{"experimental": map[string]any{"tandem": map[string]any{"permissions": true}}},
			"workspaceFolders": []map[string]string{{"uri": uri, "name": "root"}}}, nil))
		must(t, f.peer.Notify("initialized", map[string]any{}))
	}
	return f
}

func (f *front) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	switch method {
	case "session/request_permission", "tandem/requestPermission":
		var p struct {
			ToolCall struct{ Title string } `json:"toolCall"`
		}
		json.Unmarshal(params, &p)
		f.mu.Lock()
		f.asked = append(f.asked, p.ToolCall.Title)
		f.mu.Unlock()
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	case "session/update":
		var p struct {
			Update struct {
				SessionUpdate string          `json:"sessionUpdate"`
				ConfigOptions json.RawMessage `json:"configOptions"`
				Title         string          `json:"title"`
				Commands      []struct {
					Name string `json:"name"`
				} `json:"availableCommands"`
			} `json:"update"`
		}
		json.Unmarshal(params, &p)
		f.mu.Lock()
		switch p.Update.SessionUpdate {
		case "config_option_update":
			f.configs = append(f.configs, p.Update.ConfigOptions)
		case "tool_call":
			f.started = append(f.started, p.Update.Title)
			if f.onStarted != nil {
				f.onStarted(p.Update.Title)
			}
		case "available_commands_update":
			var names []string
			for _, c := range p.Update.Commands {
				names = append(names, c.Name)
			}
			f.offered = append(f.offered, names)
		}
		f.mu.Unlock()
		f.changes.Changed()
	}
	return nil, nil
}

// awaitOffered returns the command names of the latest ACP
// available_commands_update, waiting up to 5s for the first one (nil if
// none came).
func (f *front) awaitOffered() []string {
	var last []string
	f.changes.Wait(5*time.Second, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		if n := len(f.offered); n > 0 {
			last = f.offered[n-1]
		}
		return last != nil
	})
	return last
}

func (f *front) newSession(t *testing.T, root, mode string) string {
	t.Helper()
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	if f.kind == "acp" {
		must(t, f.peer.Call("session/new", map[string]any{"cwd": root, "mcpServers": []any{}}, &ns))
		must(t, f.peer.Call("session/set_mode", map[string]any{"sessionId": ns.SessionID, "modeId": mode}, nil))
	} else {
		must(t, f.peer.Call("tandem/newSession", map[string]any{"cwd": root, "mode": mode}, &ns))
	}
	return ns.SessionID
}

func (f *front) prompt(t *testing.T, sid, text string) string {
	t.Helper()
	method := "session/prompt"
	if f.kind == "lsp" {
		method = "tandem/prompt"
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	must(t, f.peer.Call(method, map[string]any{"sessionId": sid, "prompt": []map[string]string{{"type": "text", "text": text}}}, &r))
	return r.StopReason
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// cli runs `tandem plugin ...` as the user would, in another process.
func cli(t *testing.T, home string, args ...string) string {
	t.Helper()
	out, err := cliErr(t, home, args...)
	if err != nil {
		t.Fatalf("tandem plugin %v: %v\n%s", args, err, out)
	}
	return out
}

func cliErr(t *testing.T, home string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), append([]string{"plugin"}, args...)...)
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+home)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// A plugin enabled and disabled with the CLI while a session is open:
// its tool (asked for in code mode) and its prompt rule appear in the
// next request and leave again, and its process stops.
func TestFrontEnableDisableLive(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) {
			home, root := t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			srv := llmtest.NewServer(t)
			dir := pyPlugin(t, filepath.Join(home, "plugins"), "shout", map[string]any{"permissions": hookPerms})
			// Settings recorded, consent not given.
			st := &plugin.State{Version: 1, Plugins: map[string]*plugin.Choice{"shout": {Dir: dir,
				Settings: json.RawMessage(`{"tool":"upper","promptRule":"Always be loud."}`)}}}
			must(t, st.Save(home))

			f := startFront(t, kind, home, root, srv)
			sid := f.newSession(t, root, "code")
			srv.Enqueue(llmtest.Reply{Text: []string{"one"}})
			f.prompt(t, sid, "first")

			if out := cli(t, home, "enable", "shout"); !strings.Contains(out, "enabled shout") {
				t.Fatalf("enable: %s", out)
			}
			srv.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__shout__upper", Args: `{"text":"quiet"}`}}},
				llmtest.Reply{Text: []string{"two"}},
			)
			if got := f.prompt(t, sid, "second"); got != "end_turn" {
				t.Fatalf("stop %q", got)
			}
			mark := filepath.Join(home, "plugin-data", "shout")
			if len(testenv.Marked(mark)) == 0 {
				t.Error("no plugin process while enabled")
			}
			cli(t, home, "disable", "shout")
			srv.Enqueue(llmtest.Reply{Text: []string{"three"}})
			f.prompt(t, sid, "third")

			reqs := srv.Requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests", len(reqs))
			}
			has := func(i int) bool {
				return slices.Contains(reqs[i].Tools, "plugin__shout__upper") && strings.HasSuffix(reqs[i].System, "Always be loud.")
			}
			if has(0) || !has(1) || !has(2) || has(3) {
				t.Errorf("tool and rule per request: %v %v %v %v", has(0), has(1), has(2), has(3))
			}
			if got := reqs[2].LastUserText(); got != "QUIET" {
				t.Errorf("tool result %q", got)
			}
			f.mu.Lock()
			asked := f.asked
			f.mu.Unlock()
			if len(asked) != 1 || !strings.Contains(asked[0], "upper (shout plugin)") {
				t.Errorf("permission requests: %q", asked)
			}
			testenv.WaitNoProcess(t, mark, 5*time.Second)
			// tandem ran with ANTHROPIC_API_KEY set; the plugin never saw it.
			env, _ := os.ReadFile(filepath.Join(home, "plugin-data", "shout", "calls.jsonl"))
			if !strings.Contains(string(env), `"TANDEM_PLUGIN_ROOT"`) || strings.Contains(string(env), "ANTHROPIC_API_KEY") {
				t.Errorf("the plugin's environment: %s", env)
			}
		})
	}
}

// Five plugins hook one command, in name order: a refuses one call and
// rewrites the other's arguments and result, b does too after it, c is
// over its budget, d dies in the hook, e prints garbage. The turn ends
// normally with a's and b's rewrites in order; a's prompt rule is sent.
func TestFrontHooks(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) {
			home, root := t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			srv := llmtest.NewServer(t)
			plugins := filepath.Join(home, "plugins")
			both := []string{"beforeToolCall", "afterToolCall"}
			for _, p := range []struct {
				name     string
				settings map[string]any
			}{
				{"a-policy", map[string]any{"hooks": both, "promptRule": "Never run forbidden commands.",
					"beforeToolCall": map[string]any{"deny": "forbidden", "reason": "forbidden commands are off", "append": []string{"command", " a"}},
					"afterToolCall":  map[string]any{"suffix": " [a]"}}},
				{"b-rewrite", map[string]any{"hooks": both,
					"beforeToolCall": map[string]any{"append": []string{"command", " b"}},
					"afterToolCall":  map[string]any{"suffix": " [b]"}}},
				{"c-slow", map[string]any{"hooks": both, "beforeToolCall": map[string]any{"sleepMs": 500, "deny": "echo"}}},
				{"d-crash", map[string]any{"hooks": both, "beforeToolCall": map[string]any{"crash": true}}},
				{"e-garbage", map[string]any{"hooks": both, "beforeToolCall": map[string]any{"garbage": true, "deny": "echo"}}},
			} {
				dir := pyPlugin(t, plugins, p.name, map[string]any{"permissions": hookPerms, "hookTimeoutMs": 150})
				enable(t, home, p.name, dir, p.settings)
			}
			srv.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo forbidden"}`}}},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo hi"}`}}},
				llmtest.Reply{Text: []string{"done"}},
			)
			f := startFront(t, kind, home, root, srv)
			sid := f.newSession(t, root, "full-auto")
			if got := f.prompt(t, sid, "go"); got != "end_turn" {
				t.Fatalf("stop %q", got)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			if !strings.HasSuffix(reqs[0].System, "\n\nNever run forbidden commands.") {
				t.Errorf("system prompt: %q", reqs[0].System)
			}
			if got := reqs[1].LastUserText(); !strings.Contains(got, "a-policy plugin refused it: forbidden commands are off") {
				t.Errorf("deny: %q", got)
			}
			if got := strings.TrimSpace(reqs[2].LastUserText()); !strings.Contains(got, "hi a b") || !strings.HasSuffix(got, "[a] [b]") {
				t.Errorf("rewrites: %q", got)
			}
			logOf := func(name string) string {
				b, _ := os.ReadFile(filepath.Join(home, "logs", "plugin-"+name+".log"))
				return string(b)
			}
			if !strings.Contains(logOf("c-slow"), "over its budget; skipped") {
				t.Errorf("c-slow log: %s", logOf("c-slow"))
			}
			for _, n := range []string{"d-crash", "e-garbage"} {
				if !strings.Contains(logOf(n), "plugin failed") {
					t.Errorf("%s log: %s", n, logOf(n))
				}
			}
			if got := calls(t, home, "b-rewrite"); strings.Count(strings.Join(got, " "), "hooks/beforeToolCall") != 1 {
				t.Errorf("b saw the refused call too: %v", got)
			}
		})
	}
}

// Under `tandem acp` a plugin's process runs in the sandbox: it may write
// its data folder but not the workspace.
func TestFrontSandboxedPlugin(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	srv := llmtest.NewServer(t)
	dir := pyPlugin(t, filepath.Join(home, "plugins"), "boxed", nil)
	data := filepath.Join(home, "plugin-data", "boxed")
	enable(t, home, "boxed", dir, map[string]any{"tryWrite": []string{filepath.Join(data, "mine.txt"), filepath.Join(root, "evil.txt")}})
	// The temp folder is writable to plugins; the workspace here is not in it.
	tmp := filepath.Join(home, "tmp")
	os.Mkdir(tmp, 0o700)
	t.Setenv("TMPDIR", tmp)
	f := startFront(t, "acp", home, root, srv)
	sid := f.newSession(t, root, "code")
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	f.prompt(t, sid, "hello")
	got, _ := os.ReadFile(filepath.Join(data, "calls.jsonl"))
	if !strings.Contains(string(got), `{"method": "wrote", "params": "`+filepath.Join(data, "mine.txt")) ||
		!strings.Contains(string(got), `{"method": "refused", "params": "`+filepath.Join(root, "evil.txt")) {
		t.Errorf("writes: %s", got)
	}
	if _, err := os.Stat(filepath.Join(root, "evil.txt")); err == nil {
		t.Error("the plugin wrote into the workspace")
	}
}

// A Claude Code plugin folder, installed and enabled with the CLI: its
// command runs through the real `tandem acp` and `tandem lsp`.
func TestFrontClaudeCodePlugin(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) {
			home, root, src := t.TempDir(), t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			cc := filepath.Join(src, "cc-tools")
			os.MkdirAll(filepath.Join(cc, ".claude-plugin"), 0o755)
			os.MkdirAll(filepath.Join(cc, "commands"), 0o755)
			os.WriteFile(filepath.Join(cc, ".claude-plugin", "plugin.json"), []byte(`{"name":"cc-tools","version":"1.0.0"}`), 0o644)
			os.WriteFile(filepath.Join(cc, "commands", "greet.md"), []byte("Say hello to $ARGUMENTS.\n"), 0o644)
			cli(t, home, "install", cc)
			cli(t, home, "enable", "cc-tools")
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Text: []string{"hello"}})
			f := startFront(t, kind, home, root, srv)
			sid := f.newSession(t, root, "code")
			f.prompt(t, sid, "/cc-tools:greet the team")
			if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "Say hello to the team.") {
				t.Errorf("command: %q", got)
			}
		})
	}
}
