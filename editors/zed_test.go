package editors

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// agentServer is one entry of "agent_servers" as Zed and JetBrains read it.
type agentServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// tandemEnv is every variable tandem reads; a snippet naming another one
// would silently configure nothing.
var tandemEnv = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL",
	"TANDEM_PROVIDER", "TANDEM_MODEL", "TANDEM_HOME", "TANDEM_LOG"}

// TestZedAndJetBrainsSnippets checks the settings files users copy: valid
// JSON with the shape the editor reads, identical to the README's blocks,
// and a command line that really starts an ACP agent.
func TestZedAndJetBrainsSnippets(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("zed", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	for _, tc := range []struct {
		file     string
		wantType string // Zed needs "custom"; JetBrains has no type field
	}{
		{"settings.json", "custom"},
		{"jetbrains-acp.json", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("zed", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(strings.NewReader(string(raw)))
			dec.DisallowUnknownFields()
			var doc struct {
				AgentServers map[string]agentServer `json:"agent_servers"`
			}
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("%s is not the agent_servers JSON editors read: %v", tc.file, err)
			}
			srv, ok := doc.AgentServers["tandem"]
			if !ok || len(doc.AgentServers) != 1 {
				t.Fatalf("agent_servers = %v, want exactly one entry named tandem", doc.AgentServers)
			}
			if srv.Type != tc.wantType || srv.Command != "tandem" || !slices.Equal(srv.Args, []string{"acp"}) {
				t.Errorf("entry = %+v, want type %q, command tandem, args [acp]", srv, tc.wantType)
			}
			for k := range srv.Env {
				if !slices.Contains(tandemEnv, k) {
					t.Errorf("env names %s, which tandem does not read", k)
				}
			}
			inReadme := false
			for _, b := range blocks {
				inReadme = inReadme || b[1] == string(raw)
			}
			if !inReadme {
				t.Errorf("zed/README.md does not show %s verbatim; keep them the same", tc.file)
			}
			initializeOverACP(t, srv)
		})
	}
}

// initializeOverACP runs the entry's command line, with the built binary
// standing for "tandem" and the entry's env, and expects an ACP v1
// initialize answer. Initialize touches no network, so the placeholder key
// is enough.
func initializeOverACP(t *testing.T, srv agentServer) {
	t.Helper()
	cmd := exec.Command(tandemBin(t), srv.Args...)
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+t.TempDir())
	for k, v := range srv.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdin, stdout := testenv.Start(t, cmd, nil)
	defer func() {
		stdin.Close()
		if errors.Is(testenv.WaitExit(cmd, 5*time.Second), testenv.ErrNoExit) {
			t.Error("tandem acp did not exit after stdin closed")
		}
	}()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}}}` + "\n"
	if _, err := stdin.Write([]byte(initialize)); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		// Drain anything else so the server never blocks on a full pipe.
		for sc.Scan() {
		}
	}()
	var reply struct {
		ID     int `json:"id"`
		Result struct {
			ProtocolVersion   int `json:"protocolVersion"`
			AgentCapabilities struct {
				LoadSession bool `json:"loadSession"`
			} `json:"agentCapabilities"`
		} `json:"result"`
	}
	select {
	case l := <-line:
		if err := json.Unmarshal([]byte(l), &reply); err != nil {
			t.Fatalf("initialize answer %q: %v", l, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no initialize answer within 10s")
	}
	if reply.ID != 1 || reply.Result.ProtocolVersion != 1 || !reply.Result.AgentCapabilities.LoadSession {
		t.Errorf("initialize answered %+v, want id 1, protocolVersion 1, loadSession", reply)
	}
}
