// Command fakellm serves a scripted fake model over HTTP for tests that run
// tandem, or an editor driving it, in another process. It speaks the
// Anthropic, OpenAI Chat Completions and OpenAI Responses streaming wire
// formats (see package llmtest and
// README.md), prints its base URL as the first line of stdout and runs
// until stdin closes or it gets SIGTERM/SIGINT.
//
// It is a test tool: it listens on 127.0.0.1 only and never calls a real model.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	script := fs.String("script", "", "JSON script of replies and rules (required; see README.md)")
	requests := fs.String("requests", "", "on exit, write every request received to this file as JSON lines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *script == "" {
		fs.Usage()
		return errors.New("-script is required")
	}
	sc, err := llmtest.LoadScript(*script)
	if err != nil {
		return err
	}
	srv := llmtest.Start()
	srv.Use(sc)
	if _, err := fmt.Fprintln(stdout, srv.URL); err != nil {
		srv.Close()
		return err
	}

	// stdin closing is how a parent that dies (or is done) stops us. The
	// reader may outlive run when a signal ends it; the process exits then.
	stdinClosed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, stdin)
		close(stdinClosed)
	}()
	select {
	case <-ctx.Done():
	case <-stdinClosed:
	}
	srv.Close()
	if *requests != "" {
		return writeRequests(*requests, srv.Requests())
	}
	return nil
}

// loggedRequest is a Request with its body kept as JSON rather than base64.
type loggedRequest struct {
	N        int             `json:"n"`
	Format   llmtest.Format  `json:"format"`
	Path     string          `json:"path"`
	Model    string          `json:"model"`
	System   string          `json:"system"`
	Tools    []string        `json:"tools"`
	Messages []llm.Message   `json:"messages"`
	Body     json.RawMessage `json:"body"`
}

func writeRequests(path string, reqs []*llmtest.Request) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range reqs {
		body := json.RawMessage(r.Body)
		if !json.Valid(body) {
			body, _ = json.Marshal(string(r.Body))
		}
		if err := enc.Encode(loggedRequest{r.N, r.Format, r.Path, r.Model, r.System, r.Tools, r.Messages, body}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
