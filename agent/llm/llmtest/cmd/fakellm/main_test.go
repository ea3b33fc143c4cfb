package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/agent/llm/responses"
)

const script = `{
  "replies": [{"text": ["first"]}],
  "rules": [
    {"last_user_contains": "ping", "reply": {"text": ["pong"]}},
    {"last_user_contains": "tool", "reply": {"tool_calls": [{"name": "list_files", "args": "{\"path\":\".\"}", "split": 2}]}}
  ],
  "default": {"echo": true, "text": ["you said: "]}
}`

func writeScript(t *testing.T, s string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func ask(t *testing.T, p llm.Provider, text string) *llm.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := p.Stream(ctx, &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, text)}}, func(llm.Event) {})
	if err != nil {
		t.Fatalf("%s %q: %v", p.Name(), text, err)
	}
	return resp
}

func textOf(r *llm.Response) string {
	var s string
	for _, p := range r.Message.Content {
		s += p.Text
	}
	return s
}

// TestMain lets the test binary act as fakellm in a child process, which
// saves linking a second binary.
func TestMain(m *testing.M) {
	if os.Getenv("FAKELLM_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A real child process, as other programs use it: URL on the first stdout
// line, replies in order then by rule, exit on SIGTERM and on stdin EOF.
func TestProcess(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, stopBy := range []string{"stdin", "sigterm"} {
		t.Run(stopBy, func(t *testing.T) {
			reqLog := filepath.Join(t.TempDir(), "requests.jsonl")
			cmd := exec.Command(bin, "-script", writeScript(t, script), "-requests", reqLog)
			// The race runtime otherwise sleeps a second at exit.
			cmd.Env = append(os.Environ(), "FAKELLM_TEST_MAIN=1", "GORACE=atexit_sleep_ms=0")
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			url, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") {
				t.Fatalf("first line %q, %v", url, err)
			}
			url = strings.TrimSpace(url)

			ant := anthropic.New(anthropic.Options{BaseURL: url, APIKey: "k"})
			oai := openai.New(openai.Options{BaseURL: url + "/v1"})
			rsp := responses.New(responses.Options{BaseURL: url + "/v1"})
			checks := []struct {
				p    llm.Provider
				in   string
				want string
			}{
				{ant, "hello", "first"},
				{oai, "ping please", "pong"},
				{ant, "ping", "pong"},
				{oai, "anything", "you said: anything"},
				{rsp, "ping over responses", "pong"},
			}
			for _, c := range checks {
				if got := textOf(ask(t, c.p, c.in)); got != c.want {
					t.Errorf("%s %q -> %q, want %q", c.p.Name(), c.in, got, c.want)
				}
			}
			if calls := ask(t, oai, "use a tool").ToolCalls(); len(calls) != 1 || calls[0].ToolName != "list_files" || string(calls[0].Input) != `{"path":"."}` {
				t.Errorf("tool calls = %+v", calls)
			}

			if stopBy == "stdin" {
				stdin.Close()
			} else {
				cmd.Process.Signal(syscall.SIGTERM)
			}
			done := make(chan error, 1)
			go func() { io.Copy(io.Discard, stdout); done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("exit: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("fakellm did not exit")
			}
			data, err := os.ReadFile(reqLog)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) != 6 {
				t.Fatalf("%d logged requests, want 6", len(lines))
			}
			var viaResponses loggedRequest
			if err := json.Unmarshal([]byte(lines[4]), &viaResponses); err != nil || viaResponses.Format != "openai-responses" || viaResponses.Path != "/v1/responses" {
				t.Errorf("logged request 4 = %+v, %v", viaResponses, err)
			}
			var first loggedRequest
			if err := json.Unmarshal([]byte(lines[1]), &first); err != nil || first.Format != "openai" || first.Messages[0].Content[0].Text != "ping please" {
				t.Errorf("logged request 1 = %+v, %v", first, err)
			}
		})
	}
}

func TestBadScript(t *testing.T) {
	tests := map[string]string{
		"unknown field": `{"replies": [{"txt": ["typo"]}]}`,
		"bad delay":     `{"default": {"delay": "soon"}}`,
		"not json":      `replies:`,
	}
	for name, s := range tests {
		t.Run(name, func(t *testing.T) {
			err := run(context.Background(), []string{"-script", writeScript(t, s)}, strings.NewReader(""), io.Discard, io.Discard)
			if err == nil {
				t.Fatal("bad script accepted")
			}
		})
	}
}
