package completion_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/completion"
)

// A keystroke while the model answers supersedes the request waiting for
// it, the document never has two model requests at once, and typing along
// the suggestion that comes asks nothing more.
func TestEngineTyping(t *testing.T) {
	srv := llmtest.NewFIMServer(t)
	srv.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"total", " += n"}, Delay: 20 * time.Millisecond}
	})
	cfg := config.Completion{CompletionFile: config.CompletionFile{Provider: "llamacpp", BaseURL: srv.URL, DebounceMs: 5}}
	e, err := completion.New(completion.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	root := t.TempDir()
	doc := filepath.Join(root, "a.go")
	ask := func(before string) <-chan completion.Result {
		ch := make(chan completion.Result, 1)
		go func() {
			res, err := e.Complete(context.Background(), completion.Request{Doc: doc, Root: root, Before: before, After: "\n}\n"})
			if err != nil {
				t.Error(err)
			}
			ch <- res
		}()
		return ch
	}
	// The first request is at the model when a backspace comes: it is
	// answered empty at once and its model request is cancelled.
	first := ask("func f() {\n\txy")
	r1 := <-srv.Arrived()
	last := ask("func f() {\n\txw")
	if r := <-first; r.Text != "" || r.From != "superseded" {
		t.Errorf("superseded request answered %+v", r)
	}
	<-r1.Finished
	if r := <-last; r.Text != "total += n" {
		t.Fatalf("last request answered %+v, want total += n", r)
	}
	before := len(srv.Requests())
	for i, typed := range []string{"t", "to", "tot", "total +"} {
		r := <-ask("func f() {\n\txw" + typed)
		if want := "total += n"[len(typed):]; r.Text != want || r.From != "cache" {
			t.Fatalf("keystroke %d: %+v, want %q from the cache", i, r, want)
		}
	}
	st := e.Stats()
	if n := len(srv.Requests()); n != before || st.MaxInFlight != 1 || srv.MaxInFlight() != 1 || st.CacheHits != 4 {
		t.Fatalf("requests %d (want %d), engine stats %+v, server max in flight %d", n, before, st, srv.MaxInFlight())
	}
}
