package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/tandemhq/tandem/internal/redact"
)

// Transport is how a provider sends its requests; every provider's Options
// embeds it and hands it to Post unchanged.
type Transport struct {
	// HTTPClient sends requests (default http.DefaultClient). It must not
	// have a Timeout: responses stream for minutes; cancel with the context.
	HTTPClient *http.Client
	Retry      RetryPolicy
	// IdleTimeout fails a response stream that sends nothing for this
	// long (default DefaultIdleTimeout).
	IdleTimeout time.Duration
}

// HTTPRequest is one streaming POST a provider sends, with what Post needs
// to retry it and to report failures without leaking the key.
type HTTPRequest struct {
	Transport
	Provider string // for errors: "anthropic", "openai"
	KeyEnv   string // reported on 401/403 and a key the server calls invalid
	Key      string // scrubbed from any message a server echoes back
	// Secrets are more credentials to scrub the same way (a session
	// token, a second key).
	Secrets []string
	// ErrorType, when set, names an error from the response's headers
	// (Bedrock's x-amzn-ErrorType); the name goes before the message.
	ErrorType func(http.Header) string
	URL       string
	Header    http.Header
	// Body is the request body in segments sent back to back, so a
	// provider can send the encoding it keeps of a history's prefix as it
	// is, without copying it into each request.
	Body [][]byte
}

// DefaultIdleTimeout is how long a response stream may stay silent. A
// connection can stay open with the server gone quiet (a proxy holding it,
// a stuck backend); without a bound the turn would wait until the user
// cancels. Anthropic pings every few seconds; reasoning models on other
// servers can think for minutes before their first token, hence the margin.
const DefaultIdleTimeout = 10 * time.Minute

// Post sends r until it gets a 2xx response or gives up. It retries
// connection errors and retryable statuses with backoff, honouring
// Retry-After, and never after a response stream has started (the caller
// owns the returned body and reads the stream). Failures are *Error;
// cancellation returns an error wrapping ctx.Err().
func Post(ctx context.Context, r HTTPRequest) (*http.Response, error) {
	client := r.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	var last *Error
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			wait := r.Retry.backoff(attempt - 1)
			if last.retryAfter > 0 {
				wait = last.retryAfter
			}
			if wait > r.Retry.maxDelay() {
				return nil, last
			}
			if err := r.Retry.sleep(ctx, wait); err != nil {
				return nil, Cancelled(ctx, r.Provider, err)
			}
		}
		// Each attempt has its own context, so a stalled stream can be cut
		// without cancelling the caller's.
		actx, cancel := context.WithCancel(ctx)
		resp, err := r.send(actx, client)
		if err == nil && resp.StatusCode/100 == 2 {
			resp.Body = newIdleBody(resp.Body, cmp.Or(r.IdleTimeout, DefaultIdleTimeout), cancel)
			return resp, nil
		}
		if err != nil {
			cancel()
			if ctx.Err() != nil {
				return nil, Cancelled(ctx, r.Provider, ctx.Err())
			}
			last = &Error{Provider: r.Provider, Message: "connection failed: " + r.scrub(err.Error()), Retryable: true, Err: err}
		} else {
			last = r.statusError(resp) // reads the body, so only then cancel
			cancel()
		}
		if !last.Retryable || attempt+1 >= r.Retry.attempts() {
			if attempt > 0 {
				last.Message += fmt.Sprintf(" (gave up after %d attempts)", attempt+1)
			}
			return nil, last
		}
	}
}

func (r *HTTPRequest) send(ctx context.Context, client *http.Client) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, http.NoBody)
	if err != nil {
		return nil, err
	}
	for _, b := range r.Body {
		req.ContentLength += int64(len(b))
	}
	if req.ContentLength > 0 {
		// Each attempt (and a redirect) reads its own copy of the segment
		// list: reading net.Buffers consumes it.
		body := func() (io.ReadCloser, error) {
			return &segments{append(net.Buffers(nil), r.Body...)}, nil
		}
		req.Body, _ = body()
		req.GetBody = body
	}
	req.Header = r.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return client.Do(req)
}

// statusError reads a non-2xx response into an *Error and closes its body.
func (r *HTTPRequest) statusError(resp *http.Response) *Error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	msg := errorMessage(body, resp.Status)
	if r.ErrorType != nil {
		if t := r.ErrorType(resp.Header); t != "" && !strings.Contains(msg, t) {
			msg = t + ": " + msg
		}
	}
	e := &Error{
		Provider:  r.Provider,
		Status:    resp.StatusCode,
		Message:   r.scrub(msg),
		Retryable: retryableStatus(resp.StatusCode),
	}
	e.ContextSize, e.PromptTokens = statedContext(body)
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden || googleBadKey(body) {
		e.KeyEnv = r.KeyEnv
	}
	if d, ok := retryAfter(resp.Header, time.Now()); ok {
		e.retryAfter = max(d, time.Millisecond)
	} else if d, ok := googleRetryDelay(body); ok {
		e.retryAfter = max(d, time.Millisecond)
	}
	return e
}

// scrub hides the key, in its encodings, and anything shaped like a
// credential in a message a server sent back.
func (r *HTTPRequest) scrub(s string) string { return r.redactor().Text(s) }

func (r *HTTPRequest) redactor() *redact.Redactor {
	return redact.New(append([]string{r.Key}, r.Secrets...)...)
}

// scrubErr is scrub for an error a response stream ended with: an *Error's
// message is scrubbed where it is, so that errors.As finds it clean and
// later additions to it show; anything else is wrapped.
func (r *HTTPRequest) scrubErr(err error) error {
	var le *Error
	if errors.As(err, &le) {
		le.Message = r.scrub(le.Message)
		if err == error(le) {
			return err
		}
	}
	return r.redactor().Error(err)
}

// errorMessage pulls the human message out of an error body. Both wire
// formats (and most OpenAI-compatible servers) use {"error":{"message":...}};
// some use {"error":"..."} or {"message":"..."}; Google's APIs name the
// kind in "status" and Vertex wraps a streaming endpoint's error in an
// array; anything else is shown raw.
func errorMessage(body []byte, status string) string {
	body = unwrapArray(body)
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Status  string `json:"status"` // Google's RESOURCE_EXHAUSTED, INVALID_ARGUMENT
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			inner.Type = cmp.Or(inner.Type, inner.Status)
			if inner.Type != "" && !strings.Contains(inner.Message, inner.Type) {
				return inner.Type + ": " + inner.Message
			}
			return inner.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case v.Message != "":
			return v.Message
		}
	}
	msg := strings.TrimSpace(string(body))
	if msg == "" {
		return status
	}
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	return msg
}

// Cancelled wraps a cancellation so errors.Is(err, context.Canceled) (or
// DeadlineExceeded) holds and the message says which provider was cut off.
func Cancelled(ctx context.Context, provider string, err error) error {
	if cause := ctx.Err(); cause != nil {
		err = cause
	}
	return fmt.Errorf("%s: request cancelled: %w", provider, err)
}

// StreamError reports a response stream that broke after it started, or
// the ctx error when the break was our own cancellation.
func StreamError(ctx context.Context, provider, what string, err error) error {
	if ctx.Err() != nil {
		return Cancelled(ctx, provider, ctx.Err())
	}
	msg := what
	if err != nil {
		msg += ": " + err.Error()
	}
	return &Error{Provider: provider, Message: msg, Err: err}
}
