package turn

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
)

// request streams one model response, publishing its chunks, and appends
// the assistant message to the history. Before it is built the history is
// compacted if the request would pass the threshold; a provider that still
// finds it too long gets one more try after a compaction. A broken or
// cancelled stream seals what was said so far, so the history stays a
// valid alternation. The before-request seam sees the request first, the
// after-response step the complete response.
func (r *run) request() (*llm.Response, error) {
	s, ctx := r.s, r.ctx
	resp, said, err := r.send(r.c.Compact)
	if err != nil && said == "" && ctx.Err() == nil {
		s.Refused(err, r.sent)
		if r.c.Compact && compact.IsOverflow(err) {
			if cerr := s.CompactOverflow(err); cerr != nil {
				if ctx.Err() == nil {
					err = s.Overflow(fmt.Errorf("%w (compacting failed: %v)", err, cerr))
				}
			} else if resp, said, err = r.send(false); err != nil && compact.IsOverflow(err) {
				s.Refused(err, r.sent)
				err = s.Overflow(err)
			}
		}
	}
	if err != nil {
		seal := said
		if seal == "" {
			seal = "(no reply: the request did not complete)"
		}
		s.Append(llm.Text(llm.RoleAssistant, seal))
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var le *llm.Error
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", r.c.Provider.Name(), err)
	}
	s.Append(resp.Message)
	return resp, nil
}

// Request is the request set describes, without its history.
func Request(set Settings) *llm.Request {
	req := &llm.Request{
		Model:     set.Model,
		Effort:    set.Effort,
		System:    set.System,
		CacheKey:  set.CacheKey,
		MaxTokens: set.MaxTokens,
	}
	for _, t := range set.Tools {
		info := t.Info()
		if set.Exposes(info.Group) {
			req.Tools = append(req.Tools, llm.ToolSpec{Name: info.Name, Description: info.Description, InputSchema: info.Schema})
		}
	}
	return req
}

// send builds one request from a snapshot of the session's settings
// (compacting first when mayCompact and the history is over the
// threshold), runs the before-request seam, streams the response and
// accounts for it. said is the text streamed before an error.
func (r *run) send(mayCompact bool) (resp *llm.Response, said string, err error) {
	s, ctx := r.s, r.ctx
	r.sent = Sent{} // until one is sent, a failure is about no request
	r.set = s.Settings()
	req := Request(r.set)
	req.Messages = s.History()
	// Measuring walks the whole history: it is redone only when the
	// request may have changed, so a long session's turn stays flat.
	m := s.Measure(req)
	if mayCompact {
		tried, err := s.CompactIfFull(req.Model, s.Estimate(m))
		if err != nil {
			return nil, "", err
		}
		if tried {
			req.Messages = s.History()
			m = s.Measure(req)
		}
	}
	changed, err := s.BeforeRequest(ctx, req, s.Estimate(m))
	if err != nil {
		return nil, "", err
	}
	if changed {
		m = s.Measure(req)
	}
	estimate := s.Estimate(m)
	r.sent = Sent{Model: req.Model, Estimate: estimate}
	var text strings.Builder
	id := MessageID()
	resp, err = r.c.Provider.Stream(ctx, req, func(e llm.Event) {
		switch e.Type {
		case llm.EventText:
			text.WriteString(e.Text)
			s.Chunk(id, e.Text, false)
		case llm.EventReasoning:
			s.Chunk(id, e.Text, true)
		}
	})
	if err != nil {
		return nil, text.String(), err
	}
	s.AfterResponse(ctx, req, m, estimate, resp)
	return resp, "", nil
}

// MessageID names one message for the editor (messageId): random, so ids
// stay unique in a session reopened by another process.
func MessageID() string {
	var b [8]byte
	rand.Read(b[:])
	return "m_" + hex.EncodeToString(b[:])
}
