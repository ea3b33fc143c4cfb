package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// queuedLog is the debug line the agent logs as it queues a prompt.
const queuedLog = "prompt queued behind the running turn"

// wireLog keeps, in order, what tandem wrote: updates by kind and text,
// responses by id. Each is one string: "resp:<id>:<stopReason>",
// "<sessionUpdate>:<text or status>".
type wireLog struct {
	mu    sync.Mutex
	lines []string
	grew  chan struct{}
}

func (l *wireLog) add(line []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result struct {
			StopReason string `json:"stopReason"`
		} `json:"result"`
		Params struct {
			Update struct {
				Kind    string          `json:"sessionUpdate"`
				Status  string          `json:"status"`
				Content json.RawMessage `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	var s string
	switch {
	case m.Method == "session/update":
		u := m.Params.Update
		var c struct {
			Text string `json:"text"`
		}
		json.Unmarshal(u.Content, &c) // a tool call's content is a list: no text
		s = u.Kind + ":" + c.Text + u.Status
	case m.Method == "" && len(m.ID) > 0:
		s = "resp:" + string(m.ID) + ":" + m.Result.StopReason
	default:
		return
	}
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
	select {
	case l.grew <- struct{}{}:
	default:
	}
}

func (l *wireLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// waitFor waits until a line has prefix.
func (l *wireLog) waitFor(t *testing.T, prefix string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		for _, s := range l.snapshot() {
			if strings.HasPrefix(s, prefix) {
				return
			}
		}
		select {
		case <-l.grew:
		case <-deadline:
			t.Fatalf("tandem never wrote %q; wrote %q", prefix, l.snapshot())
		}
	}
}

// indexOf is the position of the first line with prefix, -1 if none.
func indexOf(lines []string, prefix string) int {
	for i, s := range lines {
		if strings.HasPrefix(s, prefix) {
			return i
		}
	}
	return -1
}

// queueTandem is one `tandem acp` on home with debug logs, every line it
// writes checked against the schema and kept in order.
type queueTandem struct {
	peer   *testenv.Peer
	wire   *wireLog
	stderr *testenv.Watch
	// permission answers session/request_permission.
	permission func() any
}

func startQueueTandem(t *testing.T, home, url string) (*queueTandem, func()) {
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(testenv.ModelEnv(home, url), "TANDEM_LOG=debug")
	q := &queueTandem{wire: &wireLog{grew: make(chan struct{}, 1)}, stderr: testenv.NewWatch(queuedLog)}
	stdin, stdout := testenv.Start(t, cmd, q.stderr)
	tap := newRequestTap(stdin)
	check := loadWireSchema(t).async(t, tap)
	record := func(line []byte) { check(line); q.wire.add(line) }
	q.peer = testenv.NewPeer(t, &wireTap{r: stdout, check: record}, tap, testenv.Lines, func(method string, _ json.RawMessage) (any, *testenv.RPCError) {
		switch method {
		case "session/update":
			return nil, nil
		case "session/request_permission":
			return q.permission(), nil
		}
		return nil, &testenv.RPCError{Code: -32601, Message: "the test client does not serve " + method}
	})
	var once sync.Once
	stop := func() {
		once.Do(func() {
			q.peer.Close()
			if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
				t.Errorf("tandem acp: %v", err)
			}
			if t.Failed() {
				t.Logf("tandem stderr:\n%s", q.stderr.String())
			}
		})
	}
	t.Cleanup(stop)
	// A client of the unstable schema: its prompt answers carry usage.
	answered(t, q.peer.Call("initialize", unstableInitParams(), nil))
	return q, stop
}

type promptAnswer struct {
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens  int `json:"inputTokens"`
		OutputTokens int `json:"outputTokens"`
	} `json:"usage"`
	err error
}

// prompt sends session/prompt on a goroutine of its own.
func (q *queueTandem) prompt(sid, text string) chan promptAnswer {
	c := make(chan promptAnswer, 1)
	go func() {
		var a promptAnswer
		a.err = q.peer.Call("session/prompt", map[string]any{"sessionId": sid,
			"prompt": []any{map[string]any{"type": "text", "text": text}}}, &a)
		c <- a
	}()
	return c
}

func allowOnce() any {
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}
}

func wantAnswer(t *testing.T, name string, c chan promptAnswer, reason string, input int) {
	t.Helper()
	select {
	case a := <-c:
		if a.err != nil || a.StopReason != reason {
			t.Errorf("%s answered %+v, want %s", name, a, reason)
			return
		}
		switch {
		case input == 0 && a.Usage != nil:
			t.Errorf("%s: usage %+v, want none", name, *a.Usage)
		case input > 0 && (a.Usage == nil || a.Usage.InputTokens != input):
			t.Errorf("%s: usage %+v, want %d input tokens", name, a.Usage, input)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("%s was never answered", name)
	}
}

// TestQueuedPromptsOverACP drives `tandem acp` as an editor that lets the
// user type while the agent works. A prompt sent while a tool call waits
// for permission is seen by the model in the request after the call's
// result; the first prompt is answered end_turn, with its own request's
// usage, before anything of the second's part is written. A prompt the
// turn never reaches runs as a turn of its own. session/cancel answers
// the running prompt and every queued one cancelled, and none of those
// reach the model. session/load in a new process replays each prompt
// where the model saw it. Every line tandem writes is checked against the
// schema.
func TestQueuedPromptsOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, ws := t.TempDir(), t.TempDir()
	gate, atModel := make(chan struct{}), make(chan struct{}, 1)
	usage := func(in int) *llm.Usage { return &llm.Usage{InputTokens: in, OutputTokens: 5} }
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		switch r.N {
		case 0:
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Args: `{"path":"note.txt","content":"hi\n"}`}}, Usage: usage(100)}
		case 1:
			return llmtest.Reply{Text: []string{"steered"}, Usage: usage(200)}
		case 2:
			atModel <- struct{}{}
			<-gate
			return llmtest.Reply{Text: []string{"plain"}, Usage: usage(300)}
		case 3:
			return llmtest.Reply{Text: []string{"own turn"}, Usage: usage(400)}
		case 4:
			return llmtest.Reply{Text: []string{"hanging"}, Hang: true}
		}
		return llmtest.Reply{Text: []string{"after"}, Usage: usage(600)}
	})
	q, stop := startQueueTandem(t, home, srv.BaseURL(llmtest.Anthropic))
	var created struct {
		SessionID string `json:"sessionId"`
	}
	answered(t, q.peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &created))
	sid := created.SessionID

	// Steering: "second" is sent while write_file waits for permission.
	secondc := make(chan chan promptAnswer, 1)
	q.permission = func() any {
		secondc <- q.prompt(sid, "second")
		q.stderr.Next(t, time.Minute)
		return allowOnce()
	}
	first := q.prompt(sid, "first")
	wantAnswer(t, "first", first, "end_turn", 100)
	wantAnswer(t, "second", <-secondc, "end_turn", 200)
	reqs := srv.Requests()
	if strings.Contains(reqs[0].LastUserText(), "second") {
		t.Error("the model saw the queued prompt before the tool call ran")
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if len(last.Content) < 2 || last.Content[0].Type != llm.PartToolResult || last.Content[len(last.Content)-1].Text != "second" {
		t.Errorf("the request after the tool call ends with %+v, want the result then the queued prompt", last.Content)
	}
	wire := q.wire.snapshot()
	done, respFirst, steered := indexOf(wire, "tool_call_update:completed"), indexOf(wire, "resp:3:end_turn"), indexOf(wire, "agent_message_chunk:steered")
	if done < 0 || respFirst < done || steered < respFirst || indexOf(wire, "resp:4:end_turn") < steered {
		t.Errorf("wire order: %q", wire)
	}

	// A prompt the turn does not reach gets a turn of its own.
	third := q.prompt(sid, "third")
	<-atModel
	fourth := q.prompt(sid, "fourth")
	q.stderr.Next(t, time.Minute)
	close(gate)
	wantAnswer(t, "third", third, "end_turn", 300)
	wantAnswer(t, "fourth", fourth, "end_turn", 400)
	if got := srv.Requests()[3].LastUserText(); got != "fourth" {
		t.Errorf("the queued prompt's own turn sent %q", got)
	}
	wire = q.wire.snapshot()
	if a, b := indexOf(wire, "resp:5:end_turn"), indexOf(wire, "agent_message_chunk:own turn"); a < 0 || b < a {
		t.Errorf("the queued turn's reply came before the first prompt's answer: %q", wire)
	}

	// session/cancel ends the turn and both queued prompts.
	fifth := q.prompt(sid, "fifth")
	q.wire.waitFor(t, "agent_message_chunk:hanging")
	sixth, seventh := q.prompt(sid, "sixth"), q.prompt(sid, "seventh")
	q.stderr.Next(t, time.Minute)
	q.stderr.Next(t, time.Minute)
	answered(t, q.peer.Notify("session/cancel", map[string]any{"sessionId": sid}))
	wantAnswer(t, "fifth", fifth, "cancelled", 0)
	wantAnswer(t, "sixth", sixth, "cancelled", 0)
	wantAnswer(t, "seventh", seventh, "cancelled", 0)
	wantAnswer(t, "eighth", q.prompt(sid, "eighth"), "end_turn", 600)
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("the model saw %d requests, want 6", n)
	}
	stop()

	// Replay in a new process: each prompt where the model saw it.
	q2, _ := startQueueTandem(t, home, srv.BaseURL(llmtest.Anthropic))
	answered(t, q2.peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	replay := q2.wire.snapshot()
	var order []string
	for _, s := range replay {
		if strings.HasPrefix(s, "user_message_chunk:") || strings.HasPrefix(s, "agent_message_chunk:") || s == "tool_call_update:completed" {
			order = append(order, s)
		}
	}
	want := []string{"user_message_chunk:first", "tool_call_update:completed", "user_message_chunk:second", "agent_message_chunk:steered",
		"user_message_chunk:third", "agent_message_chunk:plain", "user_message_chunk:fourth", "agent_message_chunk:own turn",
		"user_message_chunk:fifth", "agent_message_chunk:hanging", "user_message_chunk:eighth", "agent_message_chunk:after"}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("replay order\n got %q\nwant %q", order, want)
	}
	if bytes.Contains([]byte(strings.Join(replay, "\n")), []byte("sixth")) {
		t.Error("a cancelled queued prompt was replayed")
	}
}
