package editors

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/testenv"
)

// e2eTools are the programs the code-server test runs (testenv.VSCodeE2E).
type e2eTools = testenv.VSCodeTools

func e2eToolsOrStop(t *testing.T) e2eTools { return testenv.VSCodeE2E(t) }

// codeServerE2E installs vsix into code-server, opens a workspace in
// Chromium and drives VS Code's UI with Playwright (vscode/e2e/run.mjs):
// activation, a prompt to tandem on the fake model, an approved edit that
// lands unsaved and undoable, one saved by files.autoSave, a cancelled
// turn, a reopened session, the light bulb on a selection only. The
// screenshots of each step stay in the folder the test logs.
func codeServerE2E(t *testing.T, vsix string) {
	tools := e2eToolsOrStop(t)
	start := time.Now()
	bin := tandemBin(t)
	model, env := fakeModel(t, "vscode.json")
	root, file := workspace(t)
	userData, exts := t.TempDir(), t.TempDir()
	shots := os.Getenv("TANDEM_TEST_ARTIFACTS")
	if shots == "" {
		var err error
		if shots, err = os.MkdirTemp("", "tandem-vscode-e2e-"); err != nil {
			t.Fatal(err)
		}
	}
	shots = filepath.Join(shots, "vscode-e2e")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots: %s", shots)
	writeSettings(t, userData, map[string]any{
		"tandem.path":                                  bin,
		"files.autoSave":                               "off",
		"workbench.startupEditor":                      "none",
		"security.workspace.trust.enabled":             false,
		"telemetry.telemetryLevel":                     "off",
		"extensions.autoCheckUpdates":                  false,
		"extensions.autoUpdate":                        false,
		"update.mode":                                  "none",
		"workbench.tips.enabled":                       false,
		"chat.disableAIFeatures":                       true,
		"workbench.secondarySideBar.defaultVisibility": "hidden",
	})

	// config.json offers a second model for the model picker, and points
	// inline completions at a fake FIM server that completes "complete me:".
	fim := llmtest.NewFIMServer(t)
	fim.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		if strings.Contains(r.Prompt, "complete me:") && !strings.Contains(r.Prompt, "ghost text works") {
			return llmtest.FIMReply{Chunks: []string{" ghost text works"}}
		}
		return llmtest.FIMReply{}
	})
	home := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"models": []string{"fake-model-2"},
		"completion": map[string]any{"provider": "ollama", "model": "qwen2.5-coder:1.5b", "baseURL": fim.URL}})
	if err := os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "TANDEM_HOME="+home, "PATH="+filepath.Dir(tools.Node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	csArgs := []string{tools.CodeServer, "--user-data-dir", userData, "--extensions-dir", exts}
	install := exec.CommandContext(ctx, tools.Node, append(csArgs, "--install-extension", vsix)...)
	install.Env = env
	if out := string(run(t, install)); !strings.Contains(out, "was successfully installed") {
		t.Fatalf("code-server --install-extension: %s", out)
	}
	t.Logf("extension installed after %s", time.Since(start).Round(time.Millisecond))

	port := freePort(t)
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	cs := exec.Command(tools.Node, append(csArgs, "--auth", "none", "--bind-addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", root)...)
	cs.Env = env
	var csLog testenv.SyncBuffer
	cs.Stdout, cs.Stderr = &csLog, &csLog
	// code-server's children (extension host, tandem) share its process
	// group, which the cleanup ends as a whole.
	tree, err := proc.Start(cs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = tree.Terminate()
		if testenv.WaitExit(cs, 10*time.Second) != nil {
			_ = tree.Kill()
			_ = cs.Wait()
		}
		_ = tree.Close()
		if t.Failed() {
			t.Logf("code-server output:\n%s", csLog.String())
		}
	})
	waitHTTP(t, ctx, url+"/healthz")

	driver := exec.CommandContext(ctx, tools.Node, filepath.Join("vscode", "e2e", "run.mjs"))
	driver.Env = append(os.Environ(), "URL="+url, "WORKSPACE="+root, "FILE=sub/hello.txt", "SHOTS="+shots,
		"PLAYWRIGHT="+tools.Playwright, "CHROMIUM="+tools.Chromium)
	out, err := driver.CombinedOutput()
	steps := 0
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var s struct {
			Step string `json:"step"`
			Ms   int    `json:"ms"`
		}
		if json.Unmarshal(sc.Bytes(), &s) == nil && s.Step != "" {
			steps++
		}
	}
	if err != nil || !strings.Contains(string(out), `{"done":true`) {
		t.Fatalf("the VS Code UI test failed after %d steps (%v); screenshots in %s:\n%s", steps, err, shots, out)
	}
	t.Logf("%d steps passed in %s (install included):\n%s", steps, time.Since(start).Round(time.Millisecond), out)

	// The first edit stayed unsaved (autoSave off; the driver checked the
	// disk then); once autoSave was on, VS Code saved the second, and the
	// line typed for the ghost text (its accepted suggestion undone, as is
	// the accepted next edit).
	want := strings.Replace(diskText, "hello world", "farewell world", 1) + "\ncomplete me:"
	if b, err := os.ReadFile(file); err != nil || string(b) != want {
		t.Errorf("the disk holds %q (%v), want %q", b, err, want)
	}
	// Two turns with an edit, the cancelled story, the continued session,
	// the light bulb's fix; the last three on the model picked in the chat;
	// then the next edit.
	reqs := model.Requests()
	if len(reqs) != 8 {
		t.Errorf("the fake model got %d requests, want 8", len(reqs))
	} else if m := reqs[6].Model; m != "fake-model-2" {
		t.Errorf("the light bulb's request went to model %q, want fake-model-2 (picked in the chat)", m)
	} else if !strings.Contains(reqs[7].LastUserText(), "Recent edits") {
		t.Errorf("the last request is not the next edit's: %s", reqs[7].LastUserText())
	}
}

func writeSettings(t *testing.T, userData string, settings map[string]any) {
	t.Helper()
	dir := filepath.Join(userData, "User")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitHTTP polls url until it answers 200.
func waitHTTP(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s did not answer: %v", url, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
