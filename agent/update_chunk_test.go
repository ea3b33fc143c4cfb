package agent

import (
	"bytes"
	"testing"
)

// A text chunk written directly is byte for byte what the reflective
// encoding writes, escapes included; what it does not handle falls back.
func TestTextChunkJSONMatchesWire(t *testing.T) {
	texts := []string{"hello", "<b>&</b>", "quote \" back \\ slash", "tab\tnew\nline\x01", "\u2028\u2029 é 😀", "bad \xff utf-8", "{\"json\":1}"}
	for _, typ := range []UpdateType{AgentMessageChunk, AgentThoughtChunk, UserMessageChunk} {
		for _, id := range []string{"", "msg_1", "<id\">"} {
			for _, text := range texts {
				u := Update{Type: typ, MessageID: id, Chunk: &ContentBlock{Type: "text", Text: text}}
				fast, ok := textChunkJSON(u)
				if !ok {
					t.Fatalf("%s %q %q: not written directly", typ, id, text)
				}
				want, err := u.marshalWire()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(fast, want) {
					t.Errorf("%s %q %q:\n got %s\nwant %s", typ, id, text, fast, want)
				}
			}
		}
	}
	others := []Update{
		{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text"}},
		{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "image", Data: "aGk=", MimeType: "image/png"}},
		{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: "x", URI: "file:///a"}},
		{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: "x"}, Nest: &Nesting{ParentCall: "call_1"}},
		{Type: ToolCallStarted, Tool: &ToolCall{ID: "c", Title: "t"}},
	}
	for _, u := range others {
		if b, ok := textChunkJSON(u); ok {
			t.Errorf("%+v written directly: %s", u, b)
		}
	}
}
