package llm

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy bounds how a provider retries a request that failed before
// the response stream started. The zero value is the production default.
type RetryPolicy struct {
	// MaxAttempts counts every attempt including the first (0: 4).
	MaxAttempts int
	// BaseDelay is the first backoff step; it doubles per attempt (0: 500ms).
	BaseDelay time.Duration
	// MaxDelay caps one wait. A Retry-After asking for longer is not waited
	// for: the error is returned at once so the user is not left hanging (0: 30s).
	MaxDelay time.Duration
	// Sleep waits d or until ctx is done. Nil uses a timer; tests inject a
	// recorder so they neither wait nor lose what was asked for.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (p RetryPolicy) attempts() int {
	if p.MaxAttempts <= 0 {
		return 4
	}
	return p.MaxAttempts
}

func (p RetryPolicy) maxDelay() time.Duration {
	if p.MaxDelay <= 0 {
		return 30 * time.Second
	}
	return p.MaxDelay
}

// backoff is exponential with "equal jitter": half the step is fixed, half
// random, so concurrent sessions hitting a 429 do not retry in lockstep.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	base := p.BaseDelay
	if base <= 0 {
		base = 500 * time.Millisecond
	}
	d := base << min(attempt, 16)
	if d <= 0 || d > p.maxDelay() {
		d = p.maxDelay()
	}
	half := d / 2
	return half + rand.N(half+1)
}

func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryableStatus reports the statuses worth sending again: timeouts,
// conflicts, rate limits and server-side failures (incl. Anthropic's 529).
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// retryAfter parses a Retry-After header (delay-seconds or an HTTP date).
// Anthropic and OpenAI also send retry-after-ms, which is preferred when present.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
