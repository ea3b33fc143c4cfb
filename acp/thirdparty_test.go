package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Third-party clients run a full prompt turn with an edit against the real
// binary: the official TypeScript SDK (testdata/sdk_client.mjs) and acpx.

const (
	thirdPartyOld = "package main\n\nfunc main() {}\n"
	thirdPartyNew = "package main\n\nfunc main() { println(\"hi\") }\n"
)

// editScript makes the fake model edit main.go, then say it is done.
func editScript(t *testing.T) *llmtest.Server {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file",
			Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(\"hi\") }"}`}}},
		llmtest.Reply{Text: []string{"Done: main prints hi."}},
	)
	return srv
}

func thirdPartyEnv(srv *llmtest.Server, home string) []string {
	return append(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic)),
		"HOME="+home, // acpx keeps its state under ~/.acpx
	)
}

func runNode(t *testing.T, env []string, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, testenv.Program(t, "node"), args...)
	cmd.Env, cmd.Dir = env, dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstderr:\n%s\nstdout:\n%s", strings.Join(args, " "), err, stderr.String(), stdout.String())
	}
	return stdout.Bytes()
}

// scriptDir copies testdata/name into a temporary directory that links the
// installed node_modules: ESM resolves packages next to the script.
func scriptDir(t *testing.T, modules, name string) string {
	t.Helper()
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestThirdPartyTypeScriptSDK(t *testing.T) {
	modules := testenv.NodeModules(t, "@agentclientprotocol/sdk")
	bin := testenv.Tandem(t)
	srv := editScript(t)
	ws := workspace(t, map[string]string{"main.go": thirdPartyOld})

	jsDir := scriptDir(t, modules, "sdk_client.mjs")
	out := runNode(t, thirdPartyEnv(srv, t.TempDir()), jsDir, "sdk_client.mjs", bin, ws, "make main print hi")

	var got struct {
		Turn struct {
			StopReason string `json:"stopReason"`
		} `json:"turn"`
		List struct {
			Sessions []struct {
				SessionID string `json:"sessionId"`
				Title     string `json:"title"`
			} `json:"sessions"`
		} `json:"list"`
		Session struct {
			SessionID string `json:"sessionId"`
		} `json:"session"`
		Updates     []map[string]any `json:"updates"`
		Permissions []struct {
			ToolCall struct {
				Content []map[string]any `json:"content"`
			} `json:"toolCall"`
		} `json:"permissions"`
		Writes []struct{ Path, Content string } `json:"writes"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output is not JSON: %v\n%s", err, out)
	}
	if got.Turn.StopReason != "end_turn" {
		t.Errorf("stopReason %q", got.Turn.StopReason)
	}
	path := filepath.Join(ws, "main.go")
	if len(got.Permissions) != 1 || len(got.Permissions[0].ToolCall.Content) == 0 ||
		got.Permissions[0].ToolCall.Content[0]["type"] != "diff" || got.Permissions[0].ToolCall.Content[0]["newText"] != thirdPartyNew {
		t.Errorf("permission requests: %s", jsonString(got.Permissions))
	}
	if len(got.Writes) != 1 || got.Writes[0].Path != path || got.Writes[0].Content != thirdPartyNew {
		t.Errorf("fs/write_text_file calls: %s", jsonString(got.Writes))
	}
	if data, _ := os.ReadFile(path); string(data) != thirdPartyNew {
		t.Errorf("main.go after the turn: %q", data)
	}
	kinds := map[string]int{}
	text := ""
	for _, u := range got.Updates {
		k, _ := u["sessionUpdate"].(string)
		kinds[k]++
		if k == "agent_message_chunk" {
			text += u["content"].(map[string]any)["text"].(string)
		}
	}
	if kinds["available_commands_update"] != 1 || kinds["tool_call"] != 1 || kinds["tool_call_update"] == 0 {
		t.Errorf("updates by kind: %v", kinds)
	}
	if text != "Done: main prints hi." {
		t.Errorf("agent text %q", text)
	}
	if len(got.List.Sessions) != 1 || got.List.Sessions[0].SessionID != got.Session.SessionID || got.List.Sessions[0].Title == "" {
		t.Errorf("session/list: %s", jsonString(got.List))
	}
}

func TestThirdPartyAcpx(t *testing.T) {
	modules := testenv.NodeModules(t, "acpx")
	bin := testenv.Tandem(t)
	srv := editScript(t)
	ws := workspace(t, map[string]string{"main.go": thirdPartyOld})
	out := runNode(t, thirdPartyEnv(srv, t.TempDir()), ws,
		filepath.Join(modules, "acpx", "dist", "cli.js"),
		"--agent", bin+" acp", "--cwd", ws, "--approve-all", "--format", "json", "--timeout", "60",
		"exec", "make main print hi")

	// acpx prints the JSON-RPC traffic, one message a line.
	var (
		stop         string
		asked, wrote bool
	)
	path := filepath.Join(ws, "main.go")
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "session/request_permission":
			asked = strings.Contains(string(m.Params), `"type":"diff"`)
		case "fs/write_text_file":
			var p struct{ Path, Content string }
			_ = json.Unmarshal(m.Params, &p)
			wrote = p.Path == path && p.Content == thirdPartyNew
		case "":
			var r struct {
				StopReason string `json:"stopReason"`
			}
			if json.Unmarshal(m.Result, &r) == nil && r.StopReason != "" {
				stop = r.StopReason
			}
		}
	}
	if stop != "end_turn" || !asked || !wrote {
		t.Errorf("acpx run: stopReason %q, permission with diff %v, write through the client %v\n%s", stop, asked, wrote, out)
	}
	if data, _ := os.ReadFile(path); string(data) != thirdPartyNew {
		t.Errorf("main.go after the turn: %q", data)
	}
}

// TestThirdPartySDKLifecycle drives tandem with the official TypeScript
// SDK (which checks every message against its schema) through a login, a
// two-root session, a fork and a delete.
func TestThirdPartySDKLifecycle(t *testing.T) {
	modules := testenv.NodeModules(t, "@agentclientprotocol/sdk")
	bin := testenv.Tandem(t)
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"two roots"}})
	ws := workspace(t, nil)
	second := workspace(t, map[string]string{"lib.go": "package lib\n"})
	jsDir := scriptDir(t, modules, "sdk_lifecycle.mjs")
	home := t.TempDir()
	env := withoutKeys(thirdPartyEnv(srv, home))
	out := runNode(t, env, jsDir, "sdk_lifecycle.mjs", bin, ws, second, "sk-ant-sdk-lifecycle")

	var got struct {
		Refused *struct {
			Code int `json:"code"`
		} `json:"refused"`
		LoginStatus int `json:"loginStatus"`
		Session     struct {
			SessionID string `json:"sessionId"`
		} `json:"session"`
		Turn struct {
			StopReason string `json:"stopReason"`
		} `json:"turn"`
		Fork struct {
			SessionID string `json:"sessionId"`
		} `json:"fork"`
		ListBefore, ListAfter struct {
			Sessions []struct {
				SessionID             string   `json:"sessionId"`
				AdditionalDirectories []string `json:"additionalDirectories"`
			} `json:"sessions"`
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output is not JSON: %v\n%s", err, out)
	}
	if got.Refused == nil || got.Refused.Code != -32000 {
		t.Errorf("the prompt before login: %+v, want auth_required", got.Refused)
	}
	if got.LoginStatus != 0 || got.Turn.StopReason != "end_turn" {
		t.Errorf("login exit %d, turn %q", got.LoginStatus, got.Turn.StopReason)
	}
	if got.Fork.SessionID == "" || got.Fork.SessionID == got.Session.SessionID {
		t.Errorf("fork %q of %q", got.Fork.SessionID, got.Session.SessionID)
	}
	has := func(list []struct {
		SessionID             string   `json:"sessionId"`
		AdditionalDirectories []string `json:"additionalDirectories"`
	}, id string) bool {
		for _, s := range list {
			if s.SessionID == id {
				return true
			}
		}
		return false
	}
	if !has(got.ListBefore.Sessions, got.Fork.SessionID) || has(got.ListAfter.Sessions, got.Fork.SessionID) || !has(got.ListAfter.Sessions, got.Session.SessionID) {
		t.Errorf("session/list before and after deleting the fork: %+v / %+v", got.ListBefore, got.ListAfter)
	}
	for _, s := range got.ListAfter.Sessions {
		if s.SessionID == got.Session.SessionID && (len(s.AdditionalDirectories) != 1 || s.AdditionalDirectories[0] != second) {
			t.Errorf("the two-root session lists %v, want [%s]", s.AdditionalDirectories, second)
		}
	}
	if reqs := srv.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].System, second) {
		t.Errorf("the model was not told of the second root")
	}
}

// TestThirdPartySDKQueuedPrompt: the official TypeScript SDK, as an editor
// that lets the user type while the agent works, sees promptQueueing in
// initialize, sends a second prompt while a tool call waits for
// permission, and gets both answered in order: the first before the reply
// to the second, which the model saw with the tool's result.
func TestThirdPartySDKQueuedPrompt(t *testing.T) {
	modules := testenv.NodeModules(t, "@agentclientprotocol/sdk")
	bin := testenv.Tandem(t)
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Args: `{"path":"note.txt","content":"hi\n"}`}}},
		llmtest.Reply{Text: []string{"steered"}},
	)
	ws := workspace(t, nil)
	jsDir := scriptDir(t, modules, "sdk_queue.mjs")
	out := runNode(t, append(thirdPartyEnv(srv, t.TempDir()), "TANDEM_LOG=debug"), jsDir, "sdk_queue.mjs", bin, ws)
	var got struct {
		PromptQueueing bool `json:"promptQueueing"`
		First, Second  struct {
			StopReason string `json:"stopReason"`
		}
		Timeline []string `json:"timeline"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output is not JSON: %v\n%s", err, out)
	}
	if !got.PromptQueueing || got.First.StopReason != "end_turn" || got.Second.StopReason != "end_turn" {
		t.Errorf("client saw %s", out)
	}
	if want := []string{"answer:first:end_turn", "chunk:steered", "answer:second:end_turn"}; !slices.Equal(got.Timeline, want) {
		t.Errorf("timeline %q, want %q", got.Timeline, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.HasSuffix(reqs[1].LastUserText(), "second") || strings.Contains(reqs[0].LastUserText(), "second") {
		t.Errorf("the model did not see the queued prompt with the tool result: %d requests", len(reqs))
	}
}
