package completion

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/tandemhq/tandem/agent/llm"
)

// ollamaWire speaks Ollama's /api/generate. With a known family it sends
// a raw prompt in the family's tokens (raw mode skips the model's
// template, and with it suffix, which Ollama would otherwise drop into
// the template's .Suffix): that way the context files go in the family's
// own repository format. Otherwise it sends prompt and suffix and lets
// the model's template, which must support insertion, place them.
type ollamaWire struct{ httpWire }

type ollamaRequest struct {
	Model     string        `json:"model"`
	Prompt    string        `json:"prompt"`
	Suffix    string        `json:"suffix,omitempty"`
	Raw       bool          `json:"raw,omitempty"`
	Stream    bool          `json:"stream"`
	KeepAlive string        `json:"keep_alive,omitempty"`
	Options   ollamaOptions `json:"options"`
}

type ollamaOptions struct {
	Temperature float64  `json:"temperature"`
	NumPredict  int      `json:"num_predict"`
	Stop        []string `json:"stop,omitempty"`
}

func (w ollamaWire) stream(ctx context.Context, p *Prompt, emit func(string) bool) error {
	req := ollamaRequest{Model: w.model, Stream: true, KeepAlive: "30m",
		Options: ollamaOptions{NumPredict: p.MaxTokens, Stop: w.stops()}}
	if w.known {
		req.Prompt, req.Raw = w.family.Prompt(p), true
	} else {
		req.Prompt, req.Suffix = p.Header()+p.Prefix, p.Suffix
	}
	body, err := w.post(ctx, req)
	if err != nil {
		return err
	}
	defer body.Close()
	// Ollama streams one JSON object per line.
	r := bufio.NewReaderSize(body, 16<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var ev struct {
				Response string `json:"response"`
				Done     bool   `json:"done"`
				Error    string `json:"error"`
			}
			if jerr := json.Unmarshal(line, &ev); jerr != nil {
				return llm.StreamError(ctx, w.provider, "unreadable stream line", jerr)
			}
			if ev.Error != "" {
				return w.streamError(ev.Error)
			}
			if ev.Response != "" && !emit(ev.Response) || ev.Done {
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return llm.StreamError(ctx, w.provider, "the stream broke", err)
		}
	}
}
