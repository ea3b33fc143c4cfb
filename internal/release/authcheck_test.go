package release

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The ACP Registry's authentication check (verify_agents.py --auth-check
// and client.py in agentclientprotocol/registry, commit 3de1678), done
// the same way against our entry: the linux-x86_64 archive named by
// agent.json is unpacked, its cmd and args start with an empty HOME and
// TERM=dumb in the unpacked folder, the registry's own initialize request
// goes in, and the first line out must be its answer, with an auth method
// of type agent or terminal (the type field, else a "terminal-auth" or
// "agent-auth" _meta key, else agent).
func TestRegistryAuthCheck(t *testing.T) {
	dir := dist(t)
	var entry RegistryEntry
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir, "acp-registry", "tandem", "agent.json")), &entry); err != nil {
		t.Fatal(err)
	}
	bt, ok := entry.Distribution.Binary["linux-x86_64"]
	if !ok {
		t.Fatal("agent.json has no linux-x86_64 binary")
	}
	tg := target(t, "linux-x86_64")
	files := archiveFiles(t, filepath.Join(dir, path.Base(bt.Archive)), tg)
	unpacked := t.TempDir()
	for name, b := range files {
		p := filepath.Join(unpacked, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(unpacked, strings.TrimPrefix(bt.Cmd, "./"))
	if _, err := os.Stat(exe); err != nil {
		t.Fatalf("cmd %q is not in the archive: %v", bt.Cmd, err)
	}
	cmd := exec.Command(exe, bt.Args...)
	cmd.Dir = unpacked
	// As the registry's CI runs it: the environment of the runner with a
	// fresh HOME, so no tandem configuration or stored key of ours.
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "TANDEM_HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=")
	})
	cmd.Env = append(cmd.Env, "TERM=dumb", "HOME="+t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	const initialize = `{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1, ` +
		`"clientInfo": {"name": "ACP Registry Validator", "version": "1.0.0"}, "clientCapabilities": {"terminal": true, ` +
		`"fs": {"readTextFile": true, "writeTextFile": true}, "_meta": {"terminal_output": true, "terminal-auth": true}}}}` + "\n"
	if _, err := in.Write([]byte(initialize)); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(out).ReadString('\n')
		line <- l
	}()
	var first string
	select {
	case first = <-line:
	case <-time.After(60 * time.Second):
		t.Fatal("no answer to initialize within the registry's 60 s")
	}
	var resp struct {
		ID     int             `json:"id"`
		Error  json.RawMessage `json:"error"`
		Result struct {
			AuthMethods []struct {
				ID   string                     `json:"id"`
				Type string                     `json:"type"`
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"authMethods"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(first), &resp); err != nil || resp.ID != 1 || resp.Error != nil {
		t.Fatalf("the first line is not initialize's answer (%v): %s", err, first)
	}
	var accepted []string
	for _, m := range resp.Result.AuthMethods {
		typ := m.Type
		if typ == "" {
			if _, ok := m.Meta["terminal-auth"]; ok {
				typ = "terminal"
			} else if _, ok := m.Meta["agent-auth"]; ok {
				typ = "agent"
			} else {
				typ = "agent"
			}
		}
		if slices.Contains([]string{"agent", "terminal"}, typ) {
			accepted = append(accepted, m.ID+"("+typ+")")
		}
	}
	if len(accepted) == 0 {
		t.Fatalf("no auth method of type agent or terminal: %s", first)
	}
	t.Logf("registry auth check passes: %s", strings.Join(accepted, ", "))
}
