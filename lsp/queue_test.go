package lsp_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

type lspAnswer struct {
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens int `json:"inputTokens"`
	} `json:"usage"`
	err error
}

// TestQueuedPromptsOverLSP: tandem/prompt while a turn runs behaves as
// session/prompt does over ACP. A prompt sent while a command waits for
// permission reaches the model with the command's result; each prompt is
// answered in order with its own usage, the first before the second's
// reply is sent; $/cancelRequest on a queued prompt ends it alone;
// tandem/cancel ends the turn and the rest of the queue.
func TestQueuedPromptsOverLSP(t *testing.T) {
	model := llmtest.NewServer(t)
	usage := func(in int) *llm.Usage { return &llm.Usage{InputTokens: in, OutputTokens: 5} }
	model.Handle(func(r *llmtest.Request) llmtest.Reply {
		switch r.N {
		case 0:
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command", Args: `{"command":"echo ran"}`}}, Usage: usage(100)}
		case 1:
			return llmtest.Reply{Text: []string{"steered"}, Usage: usage(200)}
		case 2:
			return llmtest.Reply{Text: []string{"hanging"}, Hang: true}
		}
		return llmtest.Reply{Text: []string{"after"}, Usage: usage(400)}
	})
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.Tandem(t), "lsp")
	cmd.Env = fakeModelEnv(t, model)
	stderr := testenv.NewWatch("prompt queued behind the running turn")
	stdin, stdout := testenv.Start(t, cmd, stderr)
	var (
		mu     sync.Mutex
		events []string // updates' text and prompts' answers, in order
		ask    func() any
		grew   = make(chan struct{}, 1)
	)
	record := func(s string) {
		mu.Lock()
		events = append(events, s)
		mu.Unlock()
		select {
		case grew <- struct{}{}:
		default:
		}
	}
	peer := testenv.NewPeer(t, stdout, stdin, testenv.ContentLength, func(method string, params json.RawMessage) (any, *testenv.RPCError) {
		switch method {
		case "tandem/update":
			var p struct {
				Update struct {
					Kind    string `json:"sessionUpdate"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			}
			json.Unmarshal(params, &p)
			record(p.Update.Kind + ":" + p.Update.Content.Text)
			return nil, nil
		case "tandem/requestPermission":
			return ask(), nil
		}
		return nil, nil
	})
	t.Cleanup(func() {
		if err := peer.Call("shutdown", nil, nil); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		peer.Notify("exit", nil)
		peer.Close()
		if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
			t.Errorf("tandem lsp: %v", err)
		}
		if t.Failed() {
			t.Logf("tandem stderr:\n%s", stderr.String())
		}
	})
	if err := peer.Call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(root),
		"capabilities":     map[string]any{"experimental": map[string]any{"tandem": map[string]any{"permissions": true}}},
		"workspaceFolders": []map[string]string{{"uri": fileURI(root), "name": "root"}}}, nil); err != nil {
		t.Fatal(err)
	}
	peer.Notify("initialized", map[string]any{})
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := peer.Call("tandem/newSession", map[string]any{}, &sess); err != nil {
		t.Fatal(err)
	}
	prompt := func(name string) chan lspAnswer {
		c := make(chan lspAnswer, 1)
		go func() {
			var a lspAnswer
			a.err = peer.Call("tandem/prompt", map[string]any{"sessionId": sess.SessionID,
				"prompt": []map[string]string{{"type": "text", "text": name}}}, &a)
			record("answer:" + name + ":" + a.StopReason)
			c <- a
		}()
		return c
	}
	want := func(name string, c chan lspAnswer, reason string, input int) {
		t.Helper()
		select {
		case a := <-c:
			if a.err != nil || a.StopReason != reason || (input > 0) != (a.Usage != nil) || a.Usage != nil && a.Usage.InputTokens != input {
				t.Errorf("%s answered %+v, want %s with %d input tokens", name, a, reason, input)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s was never answered", name)
		}
	}

	secondc := make(chan chan lspAnswer, 1)
	ask = func() any {
		secondc <- prompt("second")
		stderr.Next(t, time.Minute)
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}
	}
	first := prompt("first")
	want("first", first, "end_turn", 100)
	want("second", <-secondc, "end_turn", 200)
	last := model.Requests()[1].Messages[len(model.Requests()[1].Messages)-1]
	if last.Content[0].Type != llm.PartToolResult || last.Content[len(last.Content)-1].Text != "second" {
		t.Errorf("the request after the command ends with %+v", last.Content)
	}
	mu.Lock()
	got := strings.Join(events, "|")
	mu.Unlock()
	if a, b := strings.Index(got, "answer:first:end_turn"), strings.Index(got, "agent_message_chunk:steered"); a < 0 || b < a {
		t.Errorf("order on the wire: %s", got)
	}

	// $/cancelRequest on a queued prompt, then tandem/cancel.
	third := prompt("third")
	waitEvent := func(s string) {
		deadline := time.After(time.Minute)
		for {
			mu.Lock()
			ok := strings.Contains(strings.Join(events, "|"), s)
			mu.Unlock()
			if ok {
				return
			}
			select {
			case <-grew:
			case <-deadline:
				t.Fatalf("never saw %s", s)
			}
		}
	}
	waitEvent("agent_message_chunk:hanging")
	fourth, fifth := prompt("fourth"), prompt("fifth")
	stderr.Next(t, time.Minute)
	stderr.Next(t, time.Minute)
	// Ids: initialize 1, newSession 2, first 3, second 4, third 5; fourth
	// and fifth are 6 and 7 in either order: cancel both ends' by id 6.
	peer.Notify("$/cancelRequest", map[string]any{"id": 6})
	var gone, other chan lspAnswer
	select {
	case a := <-fourth:
		fourth <- a
		gone, other = fourth, fifth
	case a := <-fifth:
		fifth <- a
		gone, other = fifth, fourth
	case <-time.After(time.Minute):
		t.Fatal("the prompt whose request was cancelled was never answered")
	}
	want("cancelled queued prompt", gone, "cancelled", 0)
	peer.Notify("tandem/cancel", map[string]any{"sessionId": sess.SessionID})
	want("third", third, "cancelled", 0)
	want("the other queued prompt", other, "cancelled", 0)
	want("sixth", prompt("sixth"), "end_turn", 400)
	if n := len(model.Requests()); n != 4 {
		t.Errorf("the model saw %d requests, want 4", n)
	}
}
