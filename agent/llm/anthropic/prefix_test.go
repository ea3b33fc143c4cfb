package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// encodeWhole is the request encoded in one piece, as before the prefix
// cache: the bytes encode must keep producing.
func encodeWhole(t *testing.T, p *Provider, req *llm.Request) []byte {
	t.Helper()
	var scratch Provider
	scratch.opts = p.opts
	head, err := scratch.encode(&llm.Request{Model: req.Model, MaxTokens: req.MaxTokens, Effort: req.Effort, System: req.System, Tools: req.Tools})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]wireMessage, 0, len(req.Messages))
	for _, m := range req.Messages {
		c, err := encodeParts(m.Content)
		if err != nil {
			t.Fatal(err)
		}
		w = append(w, wireMessage{Role: string(m.Role), Content: c})
	}
	markLast(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		t.Fatal(err)
	}
	return append(bytes.TrimSuffix(head, []byte("[]}")), append(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), '}')...)
}

// Two conversations growing in turn, one forked and one rewritten in
// place, all encode to the bytes of a whole encoding.
func TestPrefixCacheKeepsTheWireBytes(t *testing.T) {
	p := New(Options{APIKey: "k"})
	tools := []llm.ToolSpec{{Name: "read_file", Description: "reads <a> & b", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	var a, b []llm.Message
	check := func(name string, msgs []llm.Message) {
		t.Helper()
		req := &llm.Request{Model: "m", System: "sys", Tools: tools, Messages: msgs}
		got, err := p.encode(req)
		if err != nil {
			t.Fatal(err)
		}
		if want := encodeWhole(t, p, req); !bytes.Equal(got, want) {
			t.Fatalf("%s: encoding differs:\n got %s\nwant %s", name, got, want)
		}
	}
	check("empty", nil)
	for i := range 6 {
		a = append(a, llm.Text(llm.RoleUser, fmt.Sprintf("question %d <html> & \"quotes\"", i)))
		check("a user", a)
		a = append(a, llm.Message{Role: llm.RoleAssistant, Content: []llm.Part{{Type: llm.PartText, Text: "let me look"},
			{Type: llm.PartToolUse, ToolCallID: fmt.Sprint("t", i), ToolName: "read_file", Input: json.RawMessage(`{"path":"a.go"}`)}}})
		check("a assistant", a)
		a = append(a, llm.Message{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: fmt.Sprint("t", i), Text: "package a"}}})
		check("a result", a)
		b = append(b, llm.Text(llm.RoleUser, fmt.Sprint("other ", i)), llm.Text(llm.RoleAssistant, "ok"))
		check("b", b)
	}
	fork := append(append([]llm.Message(nil), a[:4]...), llm.Text(llm.RoleUser, "forked"))
	check("fork", fork)
	check("a again", a)
	// A part rewritten in place (as a compaction stub would be) must not
	// match the bytes cached for it.
	a[2].Content[0].Text = "[output dropped]"
	check("rewritten", a)
}
