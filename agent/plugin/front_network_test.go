package plugin_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// Under `tandem acp` a plugin without permissions.network cannot open a
// connection, even to this machine; one that declares it can.
func TestFrontPluginNetwork(t *testing.T) {
	if sandbox.LandlockABI() < 4 {
		t.Fatalf("Landlock ABI %d < 4: no network rules on this kernel", sandbox.LandlockABI())
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	home, root := t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	plugins := filepath.Join(home, "plugins")
	for name, perms := range map[string]map[string]any{
		"offline": {"events": true},
		"online":  {"events": true, "network": []string{"127.0.0.1"}},
	} {
		enable(t, home, name, pyPlugin(t, plugins, name, map[string]any{"permissions": perms}), map[string]any{"tryConnect": []int{port}})
	}
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	f := startFront(t, "acp", home, root, srv)
	sid := f.newSession(t, root, "code")
	f.prompt(t, sid, "hello")
	for name, want := range map[string]string{"offline": `"method": "unreachable"`, "online": `"method": "connected"`} {
		got, _ := os.ReadFile(filepath.Join(home, "plugin-data", name, "calls.jsonl"))
		if !strings.Contains(string(got), want) {
			t.Errorf("%s: want %s in:\n%s", name, want, got)
		}
	}
}
