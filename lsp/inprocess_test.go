package lsp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/lsp"
)

// startInProcess serves LSP from this test binary, so `go test -race`
// checks the server's own goroutines (the subprocess tests cannot).
func startInProcess(t *testing.T, model *llmtest.Server) *client {
	t.Helper()
	return startInProcessReading(t, model, func(r io.Reader) io.Reader { return r })
}

// startInProcessReading is startInProcess with the client reading the
// server's output through wrap (a slow reader, to fill the outbox).
func startInProcessReading(t *testing.T, model *llmtest.Server, wrap func(io.Reader) io.Reader) *client {
	t.Helper()
	a := agent.New(agent.Config{
		Provider: anthropic.New(anthropic.Options{APIKey: "test", BaseURL: model.BaseURL(llmtest.Anthropic)}),
		Model:    "test-model",
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := &syncBuffer{}
	srv := lsp.NewServer(lsp.Options{Agent: a, Log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	done := make(chan int, 1)
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		if err != nil {
			done <- 1
			return
		}
		done <- 0
	}()
	return newClient(t, inW, wrap(outR), stderr, func() int { return <-done }, func() { inW.Close() })
}

// TestConcurrentTraffic types into a buffer, asks for symbols and cancels
// while a prompt streams and edits, all at once, under the race detector.
func TestConcurrentTraffic(t *testing.T) {
	t.Parallel()
	model := llmtest.NewServer(t)
	model.Enqueue(
		llmtest.Reply{Text: strings.Split(strings.Repeat("chunk ", 40), " "), ToolCalls: []llmtest.ToolCall{editCall("main.go", "func f() {}", "func g() {}")}},
		llmtest.Reply{Text: []string{"done"}},
	)
	c := startInProcess(t, model)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	c.initialize(root, map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		"window": map[string]any{"workDoneProgress": true}})
	var ns struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{"mode": "full-auto"}, &ns)
	path := filepath.Join(root, "main.go")
	ed := newEditor("utf-16")
	ed.open(c, path, wideText)
	typing := filepath.Join(root, "typing.go")
	ed.open(c, typing, "package main\n")
	c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		if method == "workspace/applyEdit" {
			var p wireApplyEdit
			json.Unmarshal(params, &p)
			if err := ed.apply(c, p); err != nil {
				return map[string]any{"applied": false, "failureReason": err.Error()}, nil
			}
			return map[string]any{"applied": true}, nil
		}
		return nil, nil
	})
	_, ch := c.start("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "go"}}})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 200 {
			ed.change(c, typing, wireEdit{Range: wireRange{Start: wirePos{1, 0}, End: wirePos{1, 0}}, NewText: "// 😀 " + strings.Repeat("x", i%7) + "\n"})
		}
	}()
	go func() {
		defer wg.Done()
		for range 20 {
			c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(typing)}})
		}
	}()
	wg.Wait()
	res, rerr := c.await("tandem/prompt", ch)
	if rerr != nil || !strings.Contains(string(res), "end_turn") {
		t.Fatalf("prompt: %s %v", res, rerr)
	}
	if !strings.Contains(ed.text(path), "func g() {}") {
		t.Errorf("edit missing from the buffer: %q", ed.text(path))
	}
	// The server's view of the typed buffer matches the editor's, as the
	// agent would read it: ask via a context item echoed to the model.
	model.Enqueue(llmtest.Reply{Echo: true})
	c.mustCall("tandem/prompt", map[string]any{"sessionId": ns.SessionID,
		"prompt":  []map[string]string{{"type": "text", "text": "echo"}},
		"context": []map[string]any{{"uri": fileURI(typing)}}}, nil)
	if sent := model.Requests()[len(model.Requests())-1].LastUserText(); !strings.Contains(sent, ed.text(typing)) {
		t.Errorf("server buffer differs from the editor's after 200 keystrokes:\nmodel saw %q\neditor has %q", sent, ed.text(typing))
	}
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
