package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// Prompt handles session/prompt: one prompt of the agent. A prompt sent
// while a turn runs is queued behind it and steers it (agent/queue.go):
// each request is answered in order, once the last update of its part of
// the turn is on the wire.
func (s *server) Prompt(ctx context.Context, p sdk.PromptRequest) (_ sdk.PromptResponse, rerr error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	blocks, err := promptBlocks(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	// The prompt runs on the connection's context, stopped the way the
	// agent stops it, so that it ends with its updates flushed and stop
	// reason cancelled: $/cancel_request naming this request ends it
	// alone (queued: it leaves the queue; running: the turn stops),
	// session/cancel ends the turn and every queued prompt.
	turnCtx, stop := context.WithCancel(s.ctx)
	defer stop()
	unwatch := context.AfterFunc(ctx, stop)
	defer unwatch()
	cancels := ss.cancels.Load()
	model := ss.sess.Model()

	answer, err := ss.sess.Submit(turnCtx, blocks)
	defer func() { written(ctx, answer, rerr) }()
	if ss.sess.Model() != model { // /model changed it
		s.announceConfig(ss)
	}
	// usage is in the unstable schema only: a client of the stable one
	// has the same figures from the usage_update after each request.
	var usage *sdk.Usage
	if ss.host.unstable {
		usage = turnUsage(answer.Usage)
	}
	cancelled := answer.StopReason == agent.StopCancelled ||
		err != nil && (ss.cancels.Load() != cancels || turnCtx.Err() != nil)
	if cancelled {
		// A cancelled turn is never an error, whatever it was doing.
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled, Usage: usage}, nil
	}
	if err != nil {
		return sdk.PromptResponse{}, toRequestError(err)
	}
	return sdk.PromptResponse{StopReason: sdk.StopReason(answer.StopReason), Usage: usage}, nil
}

// written tells the session once the answer to the request of ctx is on
// the wire (at once for an error, whose writing runs nothing after it):
// the rest of the turn, and the next prompt's answer, wait for it.
func written(ctx context.Context, answer agent.Answer, err error) {
	if err != nil || !jsonrpc.AfterResponse(ctx, answer.Written) {
		answer.Written()
	}
}

// turnUsage is a prompt's tokens in the schema's unstable Usage shape;
// nil when its part sent no model request (a slash command).
// inputTokens counts every prompt token, cached or not, so the cache
// fields are parts of it.
func turnUsage(t agent.UsageTotals) *sdk.Usage {
	if t.Requests == 0 {
		return nil
	}
	opt := func(n int) *int {
		if n == 0 {
			return nil
		}
		return &n
	}
	in := t.PromptTokens()
	return &sdk.Usage{InputTokens: in, OutputTokens: t.OutputTokens, TotalTokens: in + t.OutputTokens,
		CachedReadTokens: opt(t.CacheReadTokens), CachedWriteTokens: opt(t.CacheWriteTokens), ThoughtTokens: opt(t.ReasoningTokens)}
}

// Cancel handles the session/cancel notification. It runs on the
// connection's read loop (see inline), so it must not block.
func (s *server) Cancel(ctx context.Context, p sdk.CancelNotification) (any, error) {
	s.cancelTurn(string(p.SessionId))
	return nil, nil
}

// cancelTurn stops the running turn of a session, if any, and the prompts
// queued behind it: for session/cancel.
func (s *server) cancelTurn(sessionID string) {
	ss, err := s.lookup(sdk.SessionId(sessionID))
	if err != nil {
		// Nobody to answer; a late cancel for a closed session is normal.
		s.log.Debug("acp: cancel for a session that is not open", "session", sessionID)
		return
	}
	ss.cancels.Add(1)
	ss.sess.Cancel()
}

// promptBlocks converts the client's prompt to the agent's content blocks,
// which have the same shape.
func promptBlocks(in []sdk.ContentBlock) ([]agent.ContentBlock, error) {
	if len(in) == 0 {
		return nil, invalidParams("the prompt is empty: send at least one content block")
	}
	out := make([]agent.ContentBlock, 0, len(in))
	for i, b := range in {
		switch {
		case b.Text != nil:
			out = append(out, agent.ContentBlock{Type: "text", Text: b.Text.Text})
		case b.Image != nil:
			c := agent.ContentBlock{Type: "image", MimeType: b.Image.MimeType, Data: b.Image.Data}
			if b.Image.Uri != nil {
				c.URI = *b.Image.Uri
			}
			out = append(out, c)
		case b.ResourceLink != nil:
			c := agent.ContentBlock{Type: "resource_link", URI: b.ResourceLink.Uri, Name: b.ResourceLink.Name}
			if b.ResourceLink.MimeType != nil {
				c.MimeType = *b.ResourceLink.MimeType
			}
			out = append(out, c)
		case b.Resource != nil:
			r := b.Resource.Resource
			var e agent.EmbeddedResource
			switch {
			case r.TextResourceContents != nil:
				e = agent.EmbeddedResource{URI: r.TextResourceContents.Uri, Text: r.TextResourceContents.Text}
				if r.TextResourceContents.MimeType != nil {
					e.MimeType = *r.TextResourceContents.MimeType
				}
			case r.BlobResourceContents != nil:
				e = agent.EmbeddedResource{URI: r.BlobResourceContents.Uri, Blob: r.BlobResourceContents.Blob}
				if r.BlobResourceContents.MimeType != nil {
					e.MimeType = *r.BlobResourceContents.MimeType
				}
			default:
				return nil, invalidParams("prompt block %d: a resource needs text or blob contents", i)
			}
			out = append(out, agent.ContentBlock{Type: "resource", Resource: &e})
		case b.Audio != nil:
			// No audio reaches a model: llm.Part has no audio kind, so
			// no provider encodes one (Gemini and OpenAI's audio models
			// could take it; Anthropic's Messages API cannot). Offering
			// it per provider is not possible either: initialize is
			// answered before the configuration is read, and login or
			// logout can change the provider afterwards. So the
			// capability stays false and the refusal names it.
			return nil, invalidParams("prompt block %d: audio is not supported: tandem's agentCapabilities.promptCapabilities.audio is false (tandem sends no audio to a model); send text, for instance a transcript, instead", i)
		default:
			return nil, invalidParams("prompt block %d: unknown content type", i)
		}
	}
	return out, nil
}
