package completion

import (
	"context"
)

// openaiWire speaks the legacy /v1/completions with suffix, which
// OpenAI-compatible servers and DeepSeek's FIM beta serve. For a model of
// a known family it sends one raw prompt in the family's tokens instead,
// since most self-hosted servers (vLLM, LM Studio) ignore suffix.
type openaiWire struct{ httpWire }

type openaiRequest struct {
	Model       string   `json:"model"`
	Prompt      string   `json:"prompt"`
	Suffix      string   `json:"suffix,omitempty"`
	MaxTokens   int      `json:"max_tokens"`
	Temperature float64  `json:"temperature"`
	Stream      bool     `json:"stream"`
	Stop        []string `json:"stop,omitempty"`
}

func (w openaiWire) stream(ctx context.Context, p *Prompt, emit func(string) bool) error {
	req := openaiRequest{Model: w.model, MaxTokens: p.MaxTokens, Stream: true, Stop: w.stops()}
	if w.known {
		req.Prompt = w.family.Prompt(p)
	} else {
		req.Prompt, req.Suffix = p.Header()+p.Prefix, p.Suffix
	}
	body, err := w.post(ctx, req)
	if err != nil {
		return err
	}
	return w.sse(ctx, body, func(data []byte) (bool, error) {
		var ev struct {
			Choices []struct {
				Text  string `json:"text"`
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			eventError
		}
		if err := w.decodeEvent(data, &ev); err != nil {
			return false, err
		}
		for _, c := range ev.Choices {
			// Text is /v1/completions'; Codestral's FIM endpoint streams
			// chat-shaped deltas.
			if t := c.Text + c.Delta.Content; t != "" && !emit(t) {
				return false, nil
			}
			if c.FinishReason != nil && *c.FinishReason != "" {
				return false, nil
			}
		}
		return true, nil
	})
}

// codestralWire speaks Mistral's /v1/fim/completions: prompt and suffix,
// answered in chat-shaped stream chunks, which openaiWire reads as well.
type codestralWire struct{ httpWire }

func (w codestralWire) stream(ctx context.Context, p *Prompt, emit func(string) bool) error {
	return openaiWire(w).stream(ctx, p, emit)
}
