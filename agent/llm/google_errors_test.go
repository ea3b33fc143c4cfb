package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Google's error bodies: the status named with the message, the retry
// delay read from RetryInfo, Vertex's array wrapping, and a wrong key
// (400 API_KEY_INVALID) reported as a refused credential.
func TestGoogleErrorBodies(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		msg    string
		wait   time.Duration
		keyEnv bool
	}{
		{"rate limit with RetryInfo", 429, `{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure"},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]}}`, "RESOURCE_EXHAUSTED: Quota exceeded", 7 * time.Second, false},
		{"vertex array", 503, `[{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}]`, "UNAVAILABLE: The model is overloaded.", 0, false},
		{"bad key", 400, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`, "INVALID_ARGUMENT: API key not valid. Please pass a valid API key.", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			var waits []time.Duration
			_, err := Post(context.Background(), HTTPRequest{Provider: "gemini", KeyEnv: "GEMINI_API_KEY", URL: srv.URL,
				Transport: Transport{Retry: RetryPolicy{MaxAttempts: 2, Sleep: func(ctx context.Context, d time.Duration) error {
					waits = append(waits, d)
					return nil
				}}}})
			var e *Error
			if !errors.As(err, &e) || e.Status != c.status || e.Message != c.msg && e.Message != c.msg+" (gave up after 2 attempts)" {
				t.Fatalf("err = %#v", err)
			}
			if (e.KeyEnv != "") != c.keyEnv {
				t.Errorf("KeyEnv = %q, want set %v", e.KeyEnv, c.keyEnv)
			}
			if c.wait > 0 && (len(waits) != 1 || waits[0] != c.wait) {
				t.Errorf("waits = %v, want [%v]", waits, c.wait)
			}
		})
	}
}
