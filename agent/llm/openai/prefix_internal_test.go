package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// encodeWhole is the request encoded in one piece, as before the prefix
// cache: one messages field holding every wire message.
func encodeWhole(t *testing.T, p *Provider, req *llm.Request) []byte {
	t.Helper()
	head, err := (&Provider{opts: p.opts}).encode(&llm.Request{Model: req.Model, MaxTokens: req.MaxTokens, Effort: req.Effort, Tools: req.Tools})
	if err != nil {
		t.Fatal(err)
	}
	var o object
	o.buf.Write(bytes.TrimSuffix(bytes.Join(head, nil), []byte(`,"messages":[]}`)))
	msgs := []json.RawMessage{}
	if req.System != "" {
		msgs = append(msgs, mustMarshal(textMessage{Role: "system", Content: req.System}))
	}
	for _, m := range req.Messages {
		var out []json.RawMessage
		if m.Role == llm.RoleAssistant {
			out, err = p.assistant(m)
		} else {
			out, err = user(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, out...)
	}
	o.field("messages", msgs)
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.bytes()
}

// Every PrefixSteps request encodes to the bytes of a whole encoding, with
// reasoning replayed and without.
func TestPrefixCacheKeepsTheWireBytes(t *testing.T) {
	for _, drop := range []bool{false, true} {
		p := New(Options{DropReasoning: drop})
		for name, req := range llmtest.PrefixSteps() {
			segs, err := p.encode(req)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := bytes.Join(segs, nil), encodeWhole(t, p, req); !bytes.Equal(got, want) {
				t.Fatalf("drop reasoning %v, %s: encoding differs:\n got %s\nwant %s", drop, name, got, want)
			}
		}
	}
}
