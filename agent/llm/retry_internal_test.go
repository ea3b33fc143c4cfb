package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header, ms string
		want       time.Duration
		ok         bool
	}{
		{"3", "", 3 * time.Second, true},
		{"0.5", "", 500 * time.Millisecond, true},
		{now.Add(7 * time.Second).Format(http.TimeFormat), "", 7 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), "", 0, true},
		{"soon", "", 0, false},
		{"", "", 0, false},
		{"30", "250", 250 * time.Millisecond, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != "" {
			h.Set("Retry-After", tt.header)
		}
		if tt.ms != "" {
			h.Set("Retry-After-Ms", tt.ms)
		}
		got, ok := retryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q, ms %q) = %v %v, want %v %v", tt.header, tt.ms, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffJitterBounds(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	seen := map[time.Duration]bool{}
	for attempt := 0; attempt < 8; attempt++ {
		step := min(100*time.Millisecond<<attempt, time.Second)
		for i := 0; i < 50; i++ {
			d := p.backoff(attempt)
			if d < step/2 || d > step {
				t.Fatalf("attempt %d: backoff %v outside [%v, %v]", attempt, d, step/2, step)
			}
			seen[d] = true
		}
	}
	if len(seen) < 50 {
		t.Errorf("only %d distinct delays: no jitter?", len(seen))
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error: Overloaded"},
		{`{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","code":null}}`, "requests: Rate limit reached for gpt-4o"},
		{`{"error":"model 'llama9' not found"}`, "model 'llama9' not found"},
		{`{"message":"Unauthorized"}`, "Unauthorized"},
		{"<html>bad gateway</html>\n", "<html>bad gateway</html>"},
		{"", "502 Bad Gateway"},
	}
	for _, tt := range tests {
		if got := errorMessage([]byte(tt.body), "502 Bad Gateway"); got != tt.want {
			t.Errorf("errorMessage(%q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}
