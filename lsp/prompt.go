package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// contextItem is a place in a file the user pointed at with the prompt.
type contextItem struct {
	URI   string       `json:"uri"`
	Range *edits.Range `json:"range"`
}

type promptParams struct {
	SessionID string               `json:"sessionId"`
	Prompt    []agent.ContentBlock `json:"prompt"`
	Context   []contextItem        `json:"context"`
}

type promptResult struct {
	StopReason agent.StopReason `json:"stopReason"`
	Usage      *turnUsage       `json:"usage,omitempty"`
}

// turnUsage is a turn's tokens, shaped as ACP's (unstable) Usage so both
// front doors report alike: inputTokens counts cached tokens too.
type turnUsage struct {
	InputTokens       int     `json:"inputTokens"`
	OutputTokens      int     `json:"outputTokens"`
	TotalTokens       int     `json:"totalTokens"`
	CachedReadTokens  int     `json:"cachedReadTokens,omitempty"`
	CachedWriteTokens int     `json:"cachedWriteTokens,omitempty"`
	ThoughtTokens     int     `json:"thoughtTokens,omitempty"`
	Cost              float64 `json:"cost,omitempty"` // US dollars, when the model's price is known
}

func usageOf(t agent.UsageTotals) *turnUsage {
	if t.Requests == 0 {
		return nil
	}
	u := &turnUsage{InputTokens: t.PromptTokens(), OutputTokens: t.OutputTokens, TotalTokens: t.PromptTokens() + t.OutputTokens,
		CachedReadTokens: t.CacheReadTokens, CachedWriteTokens: t.CacheWriteTokens, ThoughtTokens: t.ReasoningTokens}
	if t.Priced {
		u.Cost = t.Cost
	}
	return u
}

// prompt serves tandem/prompt: it runs one prompt, streaming tandem/update
// notifications, and answers with the stop reason once the last update of
// its part is on the wire. A prompt sent while a turn runs is queued and
// steers it (agent/queue.go). $/cancelRequest on it ends this prompt
// alone; tandem/cancel ends the turn and every queued prompt.
func (s *Server) prompt(ctx context.Context, params json.RawMessage) (any, error) {
	var p promptParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ss, err := s.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	if err := checkBlocks(p.Prompt); err != nil {
		return nil, err
	}
	blocks, err := s.withContext(ctx, ss, p.Prompt, p.Context)
	if err != nil {
		return nil, err
	}
	return s.runPrompt(ctx, ss, blocks)
}

// checkBlocks refuses the prompt blocks the agent would drop unseen: audio
// (no provider is sent audio, as ACP's promptCapabilities.audio: false
// says; the provider is not known when a client asks what tandem takes)
// and any type ACP does not define.
func checkBlocks(prompt []agent.ContentBlock) error {
	for i, b := range prompt {
		switch b.Type {
		case "text", "image", "resource_link", "resource":
		case "audio":
			return invalidParams("prompt block %d: audio is not supported: tandem sends no audio to a model (ACP's promptCapabilities.audio is false); send text, for instance a transcript, instead", i)
		default:
			return invalidParams("prompt block %d: unknown content type %s: send text, image, resource_link or resource", i, quote(b.Type))
		}
	}
	return nil
}

// runPrompt runs one prompt with a progress indicator around it. The
// prompt runs on ctx, so $/cancelRequest, the progress's cancel button (or
// the connection ending) stops it; nothing else may call Session.Cancel
// for it, since a late call would hit the next turn instead.
func (s *Server) runPrompt(ctx context.Context, ss *session, blocks []agent.ContentBlock) (promptResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr := s.beginProgress(ctx, "tandem", "thinking")
	done := ss.addProgress(pr, cancel)
	answer, err := ss.sess.Submit(ctx, blocks)
	done()
	// The rest of the turn, and the next prompt's answer, wait until this
	// answer is written (at once for an error: nothing runs after one).
	if err != nil || !jsonrpc.AfterResponse(ctx, answer.Written) {
		answer.Written()
	}
	if err != nil {
		pr.end("failed")
		return promptResult{}, agentError(err)
	}
	pr.end(string(answer.StopReason))
	return promptResult{StopReason: answer.StopReason, Usage: usageOf(answer.Usage)}, nil
}

// withContext appends each context item to the prompt as an embedded
// resource holding the editor's current text of that range, after a line
// saying where it comes from.
func (s *Server) withContext(ctx context.Context, ss *session, prompt []agent.ContentBlock, items []contextItem) ([]agent.ContentBlock, error) {
	out := append([]agent.ContentBlock(nil), prompt...)
	for _, it := range items {
		path, err := uriToPath(it.URI)
		if err != nil {
			return nil, invalidParams("context: %v", err)
		}
		text, err := ss.ReadFile(ctx, path)
		if err != nil {
			return nil, invalidParams("context: cannot read %s: %v", path, err)
		}
		label := fmt.Sprintf("Context: %s", path)
		if it.Range != nil {
			m := edits.NewMapper(text, s.encoding())
			start, end, err := m.Offsets(*it.Range)
			if err != nil {
				return nil, invalidParams("context: range %v of %s: %v", *it.Range, it.URI, err)
			}
			text = text[start:end]
			last := it.Range.End.Line
			if it.Range.End.Character == 0 && last > it.Range.Start.Line {
				last--
			}
			label = fmt.Sprintf("Context: lines %d-%d of %s", it.Range.Start.Line+1, last+1, path)
		}
		out = append(out,
			agent.ContentBlock{Type: "text", Text: label},
			agent.ContentBlock{Type: "resource", Resource: &agent.EmbeddedResource{URI: it.URI, MimeType: "text/plain", Text: text}},
		)
	}
	return out, nil
}

// cancel serves the tandem/cancel notification.
func (s *Server) cancel(_ context.Context, params json.RawMessage) error {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	ss, err := s.session(p.SessionID)
	if err != nil {
		return err
	}
	ss.sess.Cancel()
	return nil
}
