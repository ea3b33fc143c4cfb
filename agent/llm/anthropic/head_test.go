package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// The head cache serves a repeated head from memory, never a stale one:
// each variation of what the head holds, even a schema changed in place,
// encodes as a fresh provider would encode it.
func TestHeadCacheNeverServesAStaleHead(t *testing.T) {
	p := New(Options{APIKey: "k"})
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	tools := []llm.ToolSpec{{Name: "read_file", Description: "reads", InputSchema: schema}}
	msgs := []llm.Message{llm.Text(llm.RoleUser, "hi")}
	check := func(name string, req *llm.Request) []byte {
		t.Helper()
		got, err := p.encode(req)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New(Options{APIKey: "k"}).encode(req)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, fresh) {
			t.Fatalf("%s: cached encoding differs:\n got %s\nwant %s", name, got, fresh)
		}
		return got
	}
	base := llm.Request{Model: "m", System: "sys", Tools: tools, Messages: msgs}
	first := check("first", &base)
	if again := check("again", &base); !bytes.Equal(first, again) {
		t.Fatal("the same request encoded twice differs")
	}
	if n := len(p.head.entries); n != 1 {
		t.Fatalf("%d heads cached after one head, want 1", n)
	}
	for _, v := range []struct {
		name string
		edit func(r *llm.Request)
	}{
		{"model", func(r *llm.Request) { r.Model = "other" }},
		{"max tokens", func(r *llm.Request) { r.MaxTokens = 77 }},
		{"effort", func(r *llm.Request) { r.Effort = llm.EffortHigh }},
		{"system", func(r *llm.Request) { r.System = "sys2" }},
		{"no tools", func(r *llm.Request) { r.Tools = nil }},
		{"description", func(r *llm.Request) {
			r.Tools = []llm.ToolSpec{{Name: "read_file", Description: "reads files", InputSchema: schema}}
		}},
		{"no messages", func(r *llm.Request) { r.Messages = nil }},
	} {
		r := base
		v.edit(&r)
		check(v.name, &r)
	}
	// A schema rewritten in place after it was cached is not matched by
	// the bytes the cache kept.
	copy(schema[len(`{"type":"`):], "thingy")
	check("schema changed in place", &base)
	// The empty history above closed a cached head by appending to it:
	// the bytes the first request reused are intact.
	if again := check("after all", &llm.Request{Model: "m", System: "sys", Tools: tools, Messages: msgs}); bytes.Equal(again, first) {
		t.Fatal("the schema change did not reach the encoding")
	}
	if n := len(p.head.entries); n != headEntries {
		t.Errorf("%d heads cached, want the %d most recent", n, headEntries)
	}
}
