package lsp_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
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
	// Answers never reach the peer's handler, so the order tandem wrote
	// updates and answers in is read off the stream itself.
	tap := &frameTap{r: stdout, frame: func(body []byte) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result struct {
				StopReason string `json:"stopReason"`
			} `json:"result"`
			Params struct {
				Update struct {
					Kind    string          `json:"sessionUpdate"`
					Content json.RawMessage `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &m) != nil {
			return
		}
		switch {
		case m.Method == "tandem/update":
			var c struct {
				Text string `json:"text"`
			}
			json.Unmarshal(m.Params.Update.Content, &c) // a tool call's content is a list
			record(m.Params.Update.Kind + ":" + c.Text)
		case m.Method == "" && m.Result.StopReason != "":
			record("answer:" + string(m.ID) + ":" + m.Result.StopReason)
		}
	}}
	peer := testenv.NewPeer(t, tap, stdin, testenv.ContentLength, func(method string, params json.RawMessage) (any, *testenv.RPCError) {
		switch method {
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
	if a, b := strings.Index(got, "answer:3:end_turn"), strings.Index(got, "agent_message_chunk:steered"); a < 0 || b < a {
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

	// Replay: each prompt where the model saw it; the cancelled queued
	// ones never reached it.
	if err := peer.Call("tandem/closeSession", map[string]any{"sessionId": sess.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	from := len(events)
	mu.Unlock()
	if err := peer.Call("tandem/loadSession", map[string]any{"sessionId": sess.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	replay := append([]string(nil), events[from:]...)
	mu.Unlock()
	var order []string
	for _, e := range replay {
		if strings.HasPrefix(e, "user_message_chunk:") || strings.HasPrefix(e, "agent_message_chunk:") || e == "tool_call_update:" && len(order) > 0 && order[len(order)-1] != e {
			order = append(order, e)
		}
	}
	if got, want := strings.Join(order, "|"), "user_message_chunk:first|tool_call_update:|user_message_chunk:second|agent_message_chunk:steered|"+
		"user_message_chunk:third|agent_message_chunk:hanging|user_message_chunk:sixth|agent_message_chunk:after"; got != want {
		t.Errorf("replay\n got %s\nwant %s", got, want)
	}
}

// frameTap hands each Content-Length frame read through it to frame, in
// the order it was on the stream.
type frameTap struct {
	r     io.Reader
	buf   []byte
	frame func(body []byte)
}

func (f *frameTap) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.buf = append(f.buf, p[:n]...)
	for {
		head, rest, ok := bytes.Cut(f.buf, []byte("\r\n\r\n"))
		if !ok {
			break
		}
		var size int
		for _, line := range strings.Split(string(head), "\r\n") {
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				size, _ = strconv.Atoi(v)
			}
		}
		if len(rest) < size {
			break
		}
		f.frame(rest[:size])
		f.buf = rest[size:]
	}
	return n, err
}
