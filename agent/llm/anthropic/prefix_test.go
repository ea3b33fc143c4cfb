package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
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
	return append(bytes.TrimSuffix(bytes.Join(head, nil), []byte("[]}")), append(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), '}')...)
}

// Every PrefixSteps request encodes to the bytes of a whole encoding.
func TestPrefixCacheKeepsTheWireBytes(t *testing.T) {
	p := New(Options{APIKey: "k"})
	for name, req := range llmtest.PrefixSteps() {
		segs, err := p.encode(req)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := bytes.Join(segs, nil), encodeWhole(t, p, req); !bytes.Equal(got, want) {
			t.Fatalf("%s: encoding differs:\n got %s\nwant %s", name, got, want)
		}
	}
}
