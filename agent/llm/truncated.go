package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
)

// StreamOnceMore runs one streamed request and, when its stream ended
// without a stop reason (the connection closed before the provider's end
// marker), runs it exactly once more. A second truncation is reported with
// both attempts named. What the first attempt already emitted has been
// shown; the returned response is the second attempt's alone.
func StreamOnceMore(ctx context.Context, attempt func() (*Response, error)) (*Response, error) {
	resp, err := attempt()
	if err == nil || !Truncated(err) || ctx.Err() != nil {
		return resp, err
	}
	resp, err = attempt()
	var le *Error
	if err != nil && Truncated(err) && errors.As(err, &le) {
		le.Message += " (retried once; the stream was cut off again)"
	}
	return resp, err
}

// PostStream posts req and reads its response body with read, the whole
// exchange run once more when the stream is cut off (StreamOnceMore).
func PostStream(ctx context.Context, req HTTPRequest, read func(io.Reader) (*Response, error)) (*Response, error) {
	return StreamOnceMore(ctx, func() (*Response, error) {
		resp, err := Post(ctx, req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		out, err := read(resp.Body)
		if b, ok := resp.Body.(*idleBody); ok && err == nil {
			b.drain() // keeps the connection for the next request
		}
		if err != nil {
			// An error event in the stream is the server's text, like an
			// error body, and may quote the key just as well.
			err = req.scrubErr(err)
		}
		return out, err
	})
}

// Truncated reports whether err is a response stream that ended before its
// stop reason arrived.
func Truncated(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// ToolInput keeps a tool call's streamed arguments. Arguments that are not
// valid JSON are the model's mistake, not a broken stream: they are kept
// as a JSON string holding the raw text, so the history stays encodable
// and the agent can answer the call with an error the model can act on.
func ToolInput(raw []byte) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage(`{}`)
	}
	if json.Valid(raw) {
		return json.RawMessage(raw)
	}
	b, _ := json.Marshal(string(raw)) // a string always encodes
	return b
}

// IsObject reports whether b is a JSON object, the only shape tool
// arguments may have.
func IsObject(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}
