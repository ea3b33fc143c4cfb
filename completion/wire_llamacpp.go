package completion

import (
	"context"
)

// llamaWire speaks llama.cpp server's /infill: the server knows its
// model's FIM tokens and lays input_extra out as repository context.
type llamaWire struct{ httpWire }

type llamaRequest struct {
	InputPrefix string       `json:"input_prefix"`
	InputSuffix string       `json:"input_suffix"`
	InputExtra  []llamaChunk `json:"input_extra,omitempty"`
	Prompt      string       `json:"prompt"`
	NPredict    int          `json:"n_predict"`
	Temperature float64      `json:"temperature"`
	Stream      bool         `json:"stream"`
	CachePrompt bool         `json:"cache_prompt"`
	Stop        []string     `json:"stop,omitempty"`
}

type llamaChunk struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

func (w llamaWire) stream(ctx context.Context, p *Prompt, emit func(string) bool) error {
	req := llamaRequest{InputPrefix: p.Prefix, InputSuffix: p.Suffix, NPredict: p.MaxTokens,
		Stream: true, CachePrompt: true, Stop: w.stops()}
	for _, c := range p.Context {
		req.InputExtra = append(req.InputExtra, llamaChunk{Filename: c.Path, Text: c.Text})
	}
	body, err := w.post(ctx, req)
	if err != nil {
		return err
	}
	return w.sse(ctx, body, func(data []byte) (bool, error) {
		var ev struct {
			Content string `json:"content"`
			Stop    bool   `json:"stop"`
			eventError
		}
		if err := w.decodeEvent(data, &ev); err != nil {
			return false, err
		}
		if ev.Content != "" && !emit(ev.Content) {
			return false, nil
		}
		return !ev.Stop, nil
	})
}
