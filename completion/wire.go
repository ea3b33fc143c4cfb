package completion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

// wire sends one completion request and streams the answer's text to
// emit until the answer ends or emit returns false; then it stops reading
// (which closes the connection: the server stops generating).
type wire interface {
	stream(ctx context.Context, p *Prompt, emit func(string) bool) error
	// describe says where requests go and how they are formatted.
	describe() string
}

// idleTimeout fails a completion stream that goes quiet: a suggestion
// that late is of no use.
const idleTimeout = 20 * time.Second

// httpWire is what the HTTP wires share: where to post, the credential,
// the model and its FIM family.
type httpWire struct {
	provider string
	url      string
	key      string
	keyEnv   string
	header   http.Header
	model    string
	family   Family
	known    bool // family is the model's (or the configured template)
	tr       llm.Transport
}

// newWire builds the wire of a completion configuration.
func newWire(c config.Completion, o Options) (wire, error) {
	fam, known := FamilyOf(c.Model, c.Template)
	if c.Template != "" && c.Template != "none" && !known {
		return nil, fmt.Errorf("completion: template %q: use one of %s", c.Template, strings.Join(FamilyNames(), ", "))
	}
	tr := o.Transport
	// One attempt: a suggestion retried after a backoff is stale, and the
	// next keystroke asks again anyway.
	tr.Retry.MaxAttempts = 1
	if tr.IdleTimeout == 0 {
		tr.IdleTimeout = idleTimeout
	}
	w := httpWire{provider: "completion " + c.Provider, key: c.Key, keyEnv: c.KeyEnv, model: c.Model, family: fam, known: known, tr: tr}
	base := strings.TrimRight(c.BaseURL, "/")
	needModel := func() error {
		if c.Model == "" {
			return fmt.Errorf("completion: provider %s needs a model: set completion.model or TANDEM_COMPLETION_MODEL", c.Provider)
		}
		return nil
	}
	switch c.Provider {
	case config.CompletionOllama:
		w.url = orDefault(base, "http://localhost:11434") + "/api/generate"
		return ollamaWire{w}, needModel()
	case config.CompletionLlamaCpp:
		w.url = orDefault(base, "http://localhost:8080") + "/infill"
		return llamaWire{w}, nil
	case config.CompletionOpenAI:
		w.url = strings.TrimSuffix(orDefault(base, "https://api.openai.com/v1"), "/completions") + "/completions"
		return openaiWire{w}, needModel()
	case config.CompletionDeepSeek:
		w.url = orDefault(base, "https://api.deepseek.com/beta") + "/completions"
		w.model = orDefault(c.Model, "deepseek-chat")
		w.known = false // the hosted endpoint formats the hole itself
		return openaiWire{w}, nil
	case config.CompletionCodestral:
		w.url = orDefault(base, "https://codestral.mistral.ai/v1") + "/fim/completions"
		w.model = orDefault(c.Model, "codestral-latest")
		w.known = false
		return codestralWire{w}, nil
	case config.CompletionChat:
		if o.Chat == nil {
			return nil, errors.New("completion: provider chat needs a chat model: configure the agent's provider first")
		}
		return chatWire{p: o.Chat, model: orDefault(c.Model, o.ChatModel)}, nil
	}
	return nil, fmt.Errorf("completion: unknown provider %q", c.Provider)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// post sends body and returns the response stream.
func (w *httpWire) post(ctx context.Context, body any) (io.ReadCloser, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	h := w.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if w.key != "" {
		h.Set("Authorization", "Bearer "+w.key)
	}
	resp, err := llm.Post(ctx, llm.HTTPRequest{
		Transport: w.tr, Provider: w.provider, KeyEnv: w.keyEnv, Key: w.key,
		URL: w.url, Header: h, Body: [][]byte{b},
	})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// stops returns the stop sequences sent with a request: the family's when
// the prompt is in its tokens.
func (w *httpWire) stops() []string {
	if w.known {
		return w.family.Stop
	}
	return nil
}

// sse reads an event stream, handing each data payload to each until it
// returns false or the stream sends [DONE].
func (w *httpWire) sse(ctx context.Context, body io.ReadCloser, each func(data []byte) (bool, error)) error {
	defer body.Close()
	r := llm.NewSSEReader(body)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return llm.StreamError(ctx, w.provider, "the stream broke", err)
		}
		if string(ev.Data) == "[DONE]" {
			return nil
		}
		more, err := each(ev.Data)
		if err != nil || !more {
			return err
		}
	}
}

// streamError is an error a stream carries in its own JSON.
func (w *httpWire) streamError(msg string) error {
	return &llm.Error{Provider: w.provider, Message: msg}
}

// eventError is the "error" object a server may send as a stream event.
type eventError struct {
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (e *eventError) failure() *eventError { return e }

// decodeEvent reads one stream event into ev, which embeds eventError; an
// unreadable event or one carrying an error is the stream's error.
func (w *httpWire) decodeEvent(data []byte, ev interface{ failure() *eventError }) error {
	if err := json.Unmarshal(data, ev); err != nil {
		return w.streamError("unreadable stream event: " + err.Error())
	}
	if f := ev.failure(); f.Error != nil {
		return w.streamError(f.Error.Message)
	}
	return nil
}

func (w httpWire) describe() string {
	s := w.url
	if w.model != "" {
		s = w.model + " at " + s
	}
	if w.known {
		return s + ", " + w.family.Name + " FIM tokens"
	}
	return s
}
