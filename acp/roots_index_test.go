package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/testenv"
)

// A two-root session treats its second root like its first: the code
// tools and the first request's repository map find the second root's
// definitions (named by absolute path), a changed or new instruction file
// there reaches the model after a tool touches it, and a sandboxed command
// may write the second root's ordinary files but not its .git hooks or
// instruction files.
func TestAdditionalRootIndexInstructionsSandbox(t *testing.T) {
	if ok, why := sandbox.Available(); !ok {
		if testenv.Strict() {
			t.Fatalf("the test needs Landlock: %s", why)
		}
		t.Skipf("the test needs Landlock: %s", why)
	}
	primary := workspace(t, map[string]string{
		"AGENTS.md": "PRIMARY-RULES\n",
		"main.go":   "package main\n\nfunc PrimaryEntry() int { return 1 }\n",
	})
	second := workspace(t, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".git/hooks/pre-commit": "#!/bin/sh\n",
		"AGENTS.md":             "SECOND-RULES\n",
		"lib/second.go":         "package lib\n\nfunc SecondRootMarker() int { return 2 }\n",
		"notes.txt":             "notes\n",
	})
	secondGo := filepath.Join(second, "lib", "second.go")
	jsonArgs := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	cmd := "echo evil > " + filepath.Join(second, ".git/hooks/x") + "; echo evil > " + filepath.Join(second, "AGENTS.md") +
		"; echo written > " + filepath.Join(second, "notes.txt")

	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "d1", Name: "list_code_definition_names", Args: jsonArgs(map[string]string{"path": second})}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "m1", Name: "repo_map", Args: `{}`}}},
		llmtest.Reply{Text: []string{"mapped"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_file", Args: jsonArgs(map[string]string{"path": secondGo})}}},
		llmtest.Reply{Text: []string{"read"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r2", Name: "read_file", Args: jsonArgs(map[string]string{"path": filepath.Join(second, "notes.txt")})}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command", Args: jsonArgs(map[string]string{"command": cmd})}}},
		llmtest.Reply{Text: []string{"ran"}},
	)
	// Commands may write the temp directory: keep it away from the roots.
	p := startTandemEnv(t, srv, t.TempDir(), newEditor(t), "TMPDIR="+t.TempDir())
	p.initialize(t, false, false) // tandem reads, writes and runs everything itself
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: primary, AdditionalDirectories: []string{second}, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	sid := r.SessionId
	run := func(text string) {
		t.Helper()
		if reason, err := p.prompt(t, sid, text); err != nil || reason != sdk.StopReasonEndTurn {
			t.Fatalf("prompt %q: %q, %v", text, reason, err)
		}
	}

	run("map the code")
	where := filepath.ToSlash(secondGo)
	if res := resultOf(t, srv, "d1"); res.IsError || !strings.Contains(res.Text, where) || !strings.Contains(res.Text, "SecondRootMarker") {
		t.Errorf("list_code_definition_names of the second root:\n%s", res.Text)
	}
	if res := resultOf(t, srv, "m1"); res.IsError || !strings.Contains(res.Text, where+"\n") || !strings.Contains(res.Text, "SecondRootMarker") ||
		!strings.Contains(res.Text, "\nmain.go\n") {
		t.Errorf("repo_map does not cover both roots:\n%s", res.Text)
	}
	first := requestText(srv.Requests()[0])
	i := strings.Index(first, "Repository map:")
	if i < 0 {
		t.Fatalf("the first request carries no repository map:\n%s", first)
	}
	if m := first[i:]; !strings.Contains(m, "\nmain.go\n") || !strings.Contains(m, where+"\n") {
		t.Errorf("the first request's map does not name both roots:\n%s", m)
	}

	// A changed instruction file in the second root, and a new one beside
	// the file the model reads next.
	if err := os.WriteFile(filepath.Join(second, "AGENTS.md"), []byte("SECOND-RULES-CHANGED\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(second, "lib", "AGENTS.md"), []byte("LIB-RULES\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("read the second root's code")
	reqs := srv.Requests()
	after := requestText(reqs[len(reqs)-1])
	for _, want := range []string{"SECOND-RULES-CHANGED", "LIB-RULES", "additional workspace root " + second} {
		if !strings.Contains(after, want) {
			t.Errorf("after read_file in the second root the model was not told %q:\n%s", want, after)
		}
	}
	if n := strings.Count(after, "PRIMARY-RULES"); n != 1 {
		t.Errorf("the primary root's instructions appear %d times, want once", n)
	}

	// Once the session is under way, a change is noticed when a tool
	// touches the root, as in the primary root.
	if err := os.WriteFile(filepath.Join(second, "AGENTS.md"), []byte("SECOND-RULES-THIRD\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := len(srv.Requests())
	run("write everywhere")
	reqs = srv.Requests()
	if len(reqs) != n+3 {
		t.Fatalf("%d requests for the third prompt, want 3", len(reqs)-n)
	}
	if strings.Contains(requestText(reqs[n]), "SECOND-RULES-THIRD") {
		t.Errorf("the change reached the model before any tool touched the second root")
	}
	if !strings.Contains(requestText(reqs[n+1]), "SECOND-RULES-THIRD") {
		t.Errorf("after read_file in the second root the changed AGENTS.md did not reach the model")
	}
	if _, err := os.Stat(filepath.Join(second, ".git/hooks/x")); err == nil {
		t.Errorf("a sandboxed command created the second root's .git/hooks/x")
	}
	if data, _ := os.ReadFile(filepath.Join(second, "AGENTS.md")); string(data) != "SECOND-RULES-THIRD\n" {
		t.Errorf("a sandboxed command rewrote the second root's AGENTS.md: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(second, "notes.txt")); string(data) != "written\n" {
		t.Errorf("the second root's ordinary file holds %q, want the command's write", data)
	}
}
