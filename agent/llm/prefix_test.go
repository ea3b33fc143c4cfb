package llm_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// appendText encodes a message as its role and texts, comma-separated.
func appendText(dst []byte, prev byte, i int, m *llm.Message) ([]byte, error) {
	if prev != '[' {
		dst = append(dst, ',')
	}
	dst = fmt.Appendf(dst, "%d:%s", i, m.Role)
	for _, p := range m.Content {
		dst = fmt.Appendf(dst, "/%s%s%s%s", p.Text, p.Input, p.Extra()["reasoning_content"], p.ToolCallID)
	}
	return dst, nil
}

func encodeCold(msgs []llm.Message) []byte {
	body := []byte("[")
	for i := range msgs {
		body, _ = appendText(body, body[len(body)-1], i, &msgs[i])
	}
	return body
}

// Every body the cache returns stays as it was when returned, however
// later requests extend, fork or rewrite the history: segments are shared,
// never written.
func TestPrefixCacheSegmentsStay(t *testing.T) {
	var c llm.PrefixCache
	type sent struct {
		name string
		segs [][]byte
		want []byte
	}
	var all []sent
	for name, req := range llmtest.PrefixSteps() {
		segs, err := c.Encode([]byte("["), req.Messages, appendText)
		if err != nil {
			t.Fatal(err)
		}
		want := encodeCold(req.Messages)
		if got := bytes.Join(segs, nil); !bytes.Equal(got, want) {
			t.Fatalf("%s: got %s, want %s", name, got, want)
		}
		all = append(all, sent{name, segs, want})
	}
	for _, s := range all {
		if got := bytes.Join(s.segs, nil); !bytes.Equal(got, s.want) {
			t.Errorf("%s: its body changed later to %s", s.name, got)
		}
	}
}

// Sessions growing from one shared prefix at once each get their own
// bytes, and keep them: only one may grow the shared entry in place, and
// no one writes into a shared segment (run with -race).
func TestPrefixCacheConcurrentGrowth(t *testing.T) {
	type sent struct {
		segs [][]byte
		want []byte
	}
	for round := range 50 {
		var c llm.PrefixCache
		var base []llm.Message
		for i := range 6 { // grown one by one, so the entry has room to grow into
			base = append(base, llm.Text(llm.RoleUser, fmt.Sprint("shared ", i)))
			if _, err := c.Encode([]byte("["), base, appendText); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		bodies := make([][]sent, 8)
		for g := range bodies {
			wg.Go(func() {
				<-start
				msgs := append([]llm.Message(nil), base...)
				for turn := range 3 {
					msgs = append(msgs, llm.Text(llm.RoleUser, fmt.Sprintf("session %d turn %d", g, turn)), llm.Text(llm.RoleAssistant, "ok"))
					segs, err := c.Encode([]byte("["), msgs, appendText)
					if err != nil {
						panic(err) // appendText cannot fail
					}
					bodies[g] = append(bodies[g], sent{segs, encodeCold(msgs)})
				}
			})
		}
		close(start)
		wg.Wait()
		for g, sess := range bodies {
			for turn, s := range sess {
				if got := bytes.Join(s.segs, nil); !bytes.Equal(got, s.want) {
					t.Fatalf("round %d, session %d turn %d: got %s, want %s", round, g, turn, got, s.want)
				}
			}
		}
	}
}
