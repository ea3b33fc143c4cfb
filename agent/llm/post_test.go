package llm_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A server that is not there is retried MaxAttempts times, then reported
// as a retryable connection error without the key.
func TestPostConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var sleeps atomic.Int32
	_, err = llm.Post(context.Background(), llm.HTTPRequest{
		Provider: "openai", Key: "sk-secret", URL: "http://" + addr + "/v1/chat/completions",
		Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 3, Sleep: func(ctx context.Context, d time.Duration) error {
			sleeps.Add(1)
			return nil
		}}},
	})
	var e *llm.Error
	if !errors.As(err, &e) || !e.Retryable || e.Status != 0 || !strings.Contains(e.Message, "gave up after 3 attempts") {
		t.Fatalf("err = %v (%+v)", err, e)
	}
	if sleeps.Load() != 2 {
		t.Errorf("slept %d times, want 2", sleeps.Load())
	}
	if strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("key leaked: %v", err)
	}
}

// A Retry-After beyond MaxDelay is not waited for: the caller hears at once.
func TestPostRetryAfterTooLong(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Status: 429, RetryAfter: "3600", Message: "quota exhausted", Times: -1})
	_, err := llm.Post(context.Background(), llm.HTTPRequest{
		Provider: "openai", URL: srv.BaseURL(llmtest.OpenAI) + "/chat/completions", Body: [][]byte{[]byte(`{}`)},
		Transport: llm.Transport{Retry: llm.RetryPolicy{MaxDelay: time.Minute, Sleep: func(context.Context, time.Duration) error {
			t.Error("slept although Retry-After exceeds MaxDelay")
			return nil
		}}},
	})
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 429 || !strings.Contains(e.Message, "quota exhausted") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
