package llmtest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// runPrefixTests checks that a provider which reuses earlier requests'
// encodings sends the bytes a fresh provider sends, through every
// PrefixSteps request and across a request cancelled mid-stream.
func runPrefixTests(t *testing.T, format Format, newProvider func(ProviderConfig) llm.Provider) {
	t.Run("a long-lived provider sends the bytes of a fresh one", func(t *testing.T) {
		t.Parallel()
		srv := NewServer(t)
		srv.Handle(func(*Request) Reply { return Reply{Text: []string{"ok"}} })
		cfg := ProviderConfig{BaseURL: srv.BaseURL(format), APIKey: suiteKey}
		warm := newProvider(cfg)
		ctx := context.Background()
		n := 0
		for name, req := range PrefixSteps() {
			if n%5 == 2 {
				// A turn cancelled mid-stream leaves nothing behind that
				// changes the next request.
				srv.Enqueue(Reply{Text: []string{"partial"}, Hang: true})
				cctx, cancel := context.WithCancel(ctx)
				_, err := warm.Stream(cctx, req, func(e llm.Event) {
					if e.Type == llm.EventText {
						cancel()
					}
				})
				cancel()
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("%s: cancelled request: %v", name, err)
				}
			}
			n++
			if _, err := warm.Stream(ctx, req, func(llm.Event) {}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, err := newProvider(cfg).Stream(ctx, req, func(llm.Event) {}); err != nil {
				t.Fatalf("%s: fresh provider: %v", name, err)
			}
			reqs := srv.Requests()
			got, want := reqs[len(reqs)-2].Body, reqs[len(reqs)-1].Body
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: the long-lived provider's request differs from a fresh one's:\n got %s\nwant %s", name, got, want)
			}
		}
		if n < 20 {
			t.Fatalf("only %d steps ran", n)
		}
	})
}
