package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// doctorRun runs `tandem doctor` with exactly env (plus PATH unless env
// sets it) and returns its report's lines by check name.
func doctorRun(t *testing.T, dir string, env []string, args ...string) (map[string]string, int) {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), append([]string{"doctor", "--cwd", dir}, args...)...)
	cmd.Env = env
	if !strings.Contains(strings.Join(env, "\n"), "PATH=") {
		cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		// "<mark> <name, findingNameWidth columns> <detail>"
		_, rest, ok := strings.Cut(l, " ")
		if r := []rune(rest); ok && len(r) > findingNameWidth {
			lines[strings.TrimSpace(string(r[:findingNameWidth]))] = l
		}
	}
	if errb.Len() > 0 && !strings.Contains(errb.String(), "is not a config key") {
		t.Logf("stderr: %s", errb.String())
	}
	return lines, code
}

func expectLine(t *testing.T, lines map[string]string, name, mark string, words ...string) {
	t.Helper()
	l, ok := lines[name]
	if !ok {
		t.Errorf("no %s line in %v", name, lines)
		return
	}
	if !strings.HasPrefix(l, mark+" ") {
		t.Errorf("%s: %q, want it marked %s", name, l, mark)
	}
	for _, w := range words {
		if !strings.Contains(l, w) {
			t.Errorf("%s: %q lacks %q", name, l, w)
		}
	}
}

func TestDoctorPassing(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"OK"}})
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "AGENTS.md"), []byte("Run go test.\n"), 0o644)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"model":"claude-sonnet-4-5","sandbox":{"mode":"workspace-write"}}`), 0o644)
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "nvim"), []byte("#!/bin/sh\n"), 0o755)
	os.MkdirAll(filepath.Join(home, ".config", "nvim"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "nvim", "init.lua"), []byte(`require("tandem").setup()`), 0o644)
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin",
		"ANTHROPIC_API_KEY=secret-test-key", "ANTHROPIC_BASE_URL=" + srv.BaseURL(llmtest.Anthropic)}
	lines, code := doctorRun(t, work, env, "--online")
	if code != 0 {
		t.Errorf("exit %d: %v", code, lines)
	}
	expectLine(t, lines, "home", "✓", home)
	expectLine(t, lines, "config", "✓", "parsed")
	expectLine(t, lines, "provider", "✓", "anthropic", "key from ANTHROPIC_API_KEY")
	expectLine(t, lines, "model", "✓", "claude-sonnet-4-5", "200,000")
	expectLine(t, lines, "online", "✓", "answered")
	expectLine(t, lines, "instructions", "✓", "AGENTS.md")
	expectLine(t, lines, "neovim", "✓", "tandem configured")
	expectLine(t, lines, "logs", "·", "stderr")
	for _, l := range lines {
		if strings.Contains(l, "secret-test-key") {
			t.Errorf("the key was printed: %q", l)
		}
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("--online sent %d requests, want 1", len(srv.Requests()))
	}
}

func TestDoctorFailing(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "nvim"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"modle":"x","sandbox":{"mode":"off"}}`), 0o644)
	os.WriteFile(filepath.Join(home, "mcp.json"), []byte(`{"mcpServers":{"broken":{"command":"/nonexistent/mcp-server"}}}`), 0o644)
	os.MkdirAll(filepath.Join(work, ".tandem"), 0o755)
	os.WriteFile(filepath.Join(work, ".tandem", "mcp.json"), []byte(`{"mcpServers":{"repo":{"command":"x"}}}`), 0o644)
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin"}
	lines, code := doctorRun(t, work, env)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	expectLine(t, lines, "config", "!", `"modle" is not a config key (did you mean "model"?)`)
	expectLine(t, lines, "provider", "✗", "none configured", "ANTHROPIC_API_KEY")
	expectLine(t, lines, "online", "·", "not checked")
	expectLine(t, lines, "instructions", "·", "none for")
	expectLine(t, lines, "mcp broken", "✗", "failed")
	expectLine(t, lines, "mcp", "·", "1 project server", "not started")
	expectLine(t, lines, "sandbox", "!", "off")
	expectLine(t, lines, "neovim", "!", "not configured", "editors/neovim/README.md")

	// A config.json that is not JSON fails; so does a home that cannot be written.
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"model":`), 0o644)
	lines, _ = doctorRun(t, work, env)
	expectLine(t, lines, "config", "✗", "not valid JSON")
	file := filepath.Join(home, "a-file")
	os.WriteFile(file, nil, 0o644)
	lines, _ = doctorRun(t, work, []string{"HOME=" + home, "TANDEM_HOME=" + filepath.Join(file, "home")})
	expectLine(t, lines, "home", "✗", "cannot be created")
}

// --online names the key variable on a 401 and lists the provider's models
// on a 404; a model tandem does not know gets a warning with the fix.
func TestDoctorOnlineFailures(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(llmtest.Reply{Status: 401, Message: "invalid x-api-key"})
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "ANTHROPIC_API_KEY=bad", "ANTHROPIC_BASE_URL=" + srv.BaseURL(llmtest.Anthropic)}
	lines, code := doctorRun(t, work, env, "--online")
	if code != 1 {
		t.Errorf("401: exit %d", code)
	}
	expectLine(t, lines, "online", "✗", "refused", "ANTHROPIC_API_KEY")

	srv.ReportWindow(llmtest.VLLM, "qwen3:8b", 40_960)
	srv.Enqueue(llmtest.Reply{Status: 404, Message: "model not found"})
	env = []string{"HOME=" + home, "TANDEM_HOME=" + home, "OPENAI_BASE_URL=" + srv.BaseURL(llmtest.OpenAI), "TANDEM_MODEL=mystery-model"}
	lines, _ = doctorRun(t, work, env, "--online")
	expectLine(t, lines, "online", "✗", "mystery-model not found", "offers: qwen3:8b, qwen3:8b-other")
	// Another server than OpenAI's is spoken to over Chat Completions.
	expectLine(t, lines, "provider", "✓", "openai, Chat Completions")
	expectLine(t, lines, "model", "!", "does not know this model", "contextWindows")
}

// An unknown config key is reported once on start, whatever the command.
func TestUnknownKeyWarnedOnStart(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"maxTokns": 100}`), 0o644)
	_, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "hello")
	want := fmt.Sprintf(`%q is not a config key (did you mean %q?)`, "maxTokns", "maxTokens")
	if code != 0 || strings.Count(errOut, want) != 1 {
		t.Errorf("exit %d, want the warning once: %q", code, errOut)
	}
}

// The servers editors start keep their log in $TANDEM_HOME/logs as well.
func TestServerLogFile(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"modle":"x"}`), 0o644)
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil { // stdin is empty: the server ends at once
		t.Fatalf("%v: %s", err, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(home, "logs", "acp.log"))
	if err != nil || !strings.Contains(string(b), `"modle" is not a config key`) || !strings.Contains(errb.String(), `"modle"`) {
		t.Errorf("log file %q (%v), stderr %q", b, err, errb.String())
	}
}

// A working MCP server of the user's starts and lists its tools.
func TestDoctorMCPServerStarts(t *testing.T) {
	const pkg = "@modelcontextprotocol/server-everything"
	entry := filepath.Join(testenv.NodeModules(t, pkg), pkg, "dist", "index.js")
	node := testenv.Program(t, "node")
	home, work := t.TempDir(), t.TempDir()
	cfg := fmt.Sprintf(`{"servers":{"everything":{"command":%q,"args":[%q,"stdio"]}}}`, node, entry)
	os.WriteFile(filepath.Join(home, "mcp.json"), []byte(cfg), 0o644)
	lines, _ := doctorRun(t, work, []string{"HOME=" + home, "TANDEM_HOME=" + home})
	expectLine(t, lines, "mcp everything", "✓", "tools in")
}
