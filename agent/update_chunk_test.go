package agent

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// A text chunk written directly is byte for byte what the reflective
// encoding writes, escapes included; what it does not handle falls back.
func TestTextChunkJSONMatchesWire(t *testing.T) {
	texts := []string{"hello", "<b>&</b>", "quote \" back \\ slash", "tab\tnew\nline\x01", "\u2028\u2029 é 😀", "bad \xff utf-8", "{\"json\":1}",
		"\b\f\r\x00\x1f\x7f", "cut \xe2\x80", "\xed\xa0\x80 surrogate", "a\u2028b\u2029c\u2027", "日本語のテキスト"}
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

// appendJSONString quotes as json.Marshal does, over every byte value and
// random mixes of ASCII, multi-byte runes and broken UTF-8.
func TestAppendJSONStringMatchesMarshal(t *testing.T) {
	pieces := []string{"a", " ", "\"", "\\", "<", ">", "&", "\x00", "\x1f", "\x7f", "é", "😀", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	for c := range 256 {
		pieces = append(pieces, string([]byte{byte(c)}))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := sb.String()
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
}
