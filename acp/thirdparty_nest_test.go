package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestThirdPartySDKNestedAndLive runs the official TypeScript SDK (which
// checks every message against its schema) through a subagent that asks
// before it writes and a command whose output streams live: the SDK's
// client gets the child's updates and question nested under the task call
// in _meta, and the command's output in terminal_output pieces before and
// after it let the command go on, the key it prints redacted, then
// terminal_exit.
func TestThirdPartySDKNestedAndLive(t *testing.T) {
	modules := testenv.NodeModules(t, "@agentclientprotocol/sdk")
	bin := testenv.Tandem(t)
	ws := workspace(t, map[string]string{".tandem/agents/fixer.md": fixerAgent})
	command := fmt.Sprintf("mkfifo go.fifo && printf 'first line\\n' && read x < go.fifo && printf 'key=%%s%%s\\n' '%s' '%s' && echo end",
		liveKey[:12], liveKey[12:])
	run := liveScript(command)
	srv := llmtest.NewServer(t)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		child := strings.Contains(r.System, "You are fixer")
		switch {
		case child && len(r.Messages) == 1:
			return llmtest.Reply{Text: []string{"child working"},
				ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Args: `{"path":"b.txt","content":"fixed\n"}`}}}
		case child:
			return llmtest.Reply{Text: []string{"REPORT: wrote b.txt"}}
		case strings.Contains(r.LastUserText(), "REPORT"):
			return llmtest.Reply{Text: []string{"parent done"}}
		case strings.Contains(r.LastUserText(), "RUN") || r.Messages[len(r.Messages)-1].Content[0].Type == llm.PartToolResult:
			return run(r) // the command, then "ran" after its result
		}
		args, _ := json.Marshal(map[string]string{"description": "fix", "prompt": "make b.txt", "agent": "fixer"})
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "task1", Name: "task", Args: string(args)}}}
	})
	jsDir := scriptDir(t, modules, "sdk_nest_live.mjs")
	env := append(thirdPartyEnv(srv, t.TempDir()), "ANTHROPIC_API_KEY="+liveKey)
	out := runNode(t, env, jsDir, "sdk_nest_live.mjs", bin, ws, filepath.Join(ws, "go.fifo"))
	if strings.Contains(string(out), liveKey) {
		t.Errorf("the key reached the client: %s", out)
	}
	var got struct {
		Nested, Live struct {
			StopReason string `json:"stopReason"`
		}
		Updates     []map[string]any `json:"updates"`
		Permissions []struct {
			ToolCall map[string]any `json:"toolCall"`
		} `json:"permissions"`
		ReleasedAfter int `json:"releasedAfter"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output is not JSON: %v\n%s", err, out)
	}
	if got.Nested.StopReason != "end_turn" || got.Live.StopReason != "end_turn" {
		t.Fatalf("turns ended %q and %q", got.Nested.StopReason, got.Live.StopReason)
	}
	if len(got.Permissions) != 2 || parentOf(got.Permissions[0].ToolCall) != "task1" || parentOf(got.Permissions[1].ToolCall) != "" ||
		!strings.HasPrefix(fmt.Sprint(got.Permissions[0].ToolCall["title"]), "fixer agent: ") {
		t.Errorf("the child's question: %s", jsonString(got.Permissions))
	}
	checkNesting(t, got.Updates, "task1", "task1/w1")

	var before, after int
	var output strings.Builder
	var exited bool
	for i, u := range got.Updates {
		if u["toolCallId"] != "cmd1" {
			continue
		}
		if s := termOutput(u); s != "" {
			output.WriteString(s)
			if i < got.ReleasedAfter {
				before++
			} else {
				after++
			}
		}
		if exit, ok := meta(u)["terminal_exit"].(map[string]any); ok {
			exited = exit["exit_code"] == float64(0) && u["status"] == "completed"
		}
	}
	if before == 0 || after == 0 || !exited || !strings.HasPrefix(output.String(), "first line\nkey=") || !strings.HasSuffix(output.String(), "end\n") {
		t.Errorf("live output: %d pieces before the fifo, %d after, exited %v: %q", before, after, exited, output.String())
	}
}
