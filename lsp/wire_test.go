package lsp_test

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// sendRawID sends a request whose id is written exactly as rawID (the
// client's own encoder would normalise it) and returns the first response
// that follows it, whatever its id.
func (c *client) sendRawID(rawID, method, params string) rpcMsg {
	c.t.Helper()
	before := len(c.messages())
	c.writeRaw(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, rawID, method, params)))
	return c.waitMsgFrom(before, "the answer to id "+rawID, isResponse)
}

func isResponse(m rpcMsg) bool { return m.Method == "" && m.ID != nil }

// TestRequestIDsEchoedExactly: whatever id a client picks, the answer
// carries the same JSON bytes, so a client matching answers by id (or by
// its own string form of it) finds them.
func TestRequestIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	c := startInProcess(t, llmtest.NewServer(t))
	c.initialize(t.TempDir(), map[string]any{})
	for _, id := range []string{
		`""`,
		`"tab\t\u00e9\u0041 \"q\" \\ \/ 😀"`,
		`2147483648`,
		`9007199254740993`,
		`-7`,
		`"42"`,
	} {
		m := c.sendRawID(id, "tandem/listSessions", `{}`)
		if string(m.ID) != id {
			t.Errorf("request id %s answered with id %s", id, m.ID)
		}
		if m.Error != nil {
			t.Errorf("request id %s: error %v", id, m.Error)
		}
	}
}

// TestInvalidRequests: a message that is JSON but not a valid request is
// answered -32600, with its id when the id itself could be read, and is not
// acted on; the server goes on serving.
func TestInvalidRequests(t *testing.T) {
	t.Parallel()
	c := startInProcess(t, llmtest.NewServer(t))
	c.initialize(t.TempDir(), map[string]any{})
	for _, tc := range []struct {
		name, body, wantID string
	}{
		{"wrong jsonrpc version", `{"jsonrpc":"1.0","id":99,"method":"shutdown"}`, `99`},
		{"no jsonrpc member", `{"id":"s\u0041","method":"shutdown"}`, `"s\u0041"`},
		{"method not a string", `{"jsonrpc":"2.0","id":"q","method":7}`, `"q"`},
		{"id of the wrong type", `{"jsonrpc":"2.0","id":{"n":1},"method":"shutdown"}`, `null`},
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"shutdown"}]`, `null`},
		{"not an object", `"shutdown"`, `null`},
	} {
		before := len(c.messages())
		c.writeRaw(frame(tc.body))
		m := c.waitMsgFrom(before, "the answer to "+tc.name, isResponse)
		if m.Error == nil || m.Error.Code != -32600 || string(m.ID) != tc.wantID {
			t.Errorf("%s: answered id %s error %+v, want -32600 with id %s", tc.name, m.ID, m.Error, tc.wantID)
		}
	}
	// None of the shutdowns above took effect: requests are still served.
	if _, err := c.call("tandem/listSessions", map[string]any{}); err != nil {
		t.Fatalf("after invalid requests: %v", err)
	}
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestCancelRequestStringID: $/cancelRequest naming a string id cancels
// the prompt that has it, and the answer carries that id.
func TestCancelRequestStringID(t *testing.T) {
	t.Parallel()
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: []string{"thinking"}, Hang: true}, llmtest.Reply{Text: []string{"again"}})
	c := startInProcess(t, model)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c.initialize(root, map[string]any{})
	var ns struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{}, &ns)
	const id = `"prompt \"one\""`
	before := len(c.messages())
	c.writeRaw(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tandem/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"go"}]}}`, id, ns.SessionID)))
	c.waitMsgFrom(before, "the first chunk", isChunk)
	c.writeRaw(frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":` + id + `}}`))
	m := c.waitMsgFrom(before, "the cancelled prompt's answer", isResponse)
	if string(m.ID) != id || m.Error != nil || !strings.Contains(string(m.Result), `"cancelled"`) {
		t.Fatalf("cancelled prompt answered id %s result %s error %v; want id %s and stopReason cancelled", m.ID, m.Result, m.Error, id)
	}
	var res struct{ StopReason string }
	c.mustCall("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "again"}}}, &res)
	if res.StopReason != "end_turn" {
		t.Errorf("prompt after cancel: %q", res.StopReason)
	}
}

// slowReader hands over a few bytes at a time with a pause, like a client
// busy rendering, so the server's outbox fills and senders wait (the pause
// is the slow client under test, not a poll).
type slowReader struct{ r io.Reader }

func (s slowReader) Read(p []byte) (int, error) {
	time.Sleep(50 * time.Microsecond)
	return s.r.Read(p[:min(len(p), 64)])
}

// TestUpdatesKeepOrderUnderBackPressure: with a client that reads slowly,
// a long stream of updates still leaves in the order produced, and the
// prompt's response comes after the last of them.
func TestUpdatesKeepOrderUnderBackPressure(t *testing.T) {
	t.Parallel()
	var chunks []string
	for i := range 300 {
		chunks = append(chunks, fmt.Sprintf("<%d>", i))
	}
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: chunks})
	c := startInProcessReading(t, model, func(r io.Reader) io.Reader { return slowReader{r} })
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c.initialize(root, map[string]any{})
	var ns struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{}, &ns)
	id, ch := c.start("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "go"}}})
	if res, rerr := c.await("tandem/prompt", ch); rerr != nil || !strings.Contains(string(res), "end_turn") {
		t.Fatalf("prompt: %s %v", res, rerr)
	}
	var text strings.Builder
	for _, u := range updates(c.messages()) {
		if u.Update.SessionUpdate == "agent_message_chunk" {
			var b struct{ Text string }
			json.Unmarshal(u.Update.Content, &b)
			text.WriteString(b.Text)
		}
	}
	if want := strings.Join(chunks, ""); text.String() != want {
		t.Errorf("streamed text out of order or incomplete:\n%s\nwant\n%s", text.String(), want)
	}
	msgs := c.messages()
	if last := msgs[len(msgs)-1]; last.Method != "" || string(last.ID) != jsonInt(id) {
		t.Errorf("last message is %s %s, want the prompt's response (id %d)", last.Method, last.ID, id)
	}
}
