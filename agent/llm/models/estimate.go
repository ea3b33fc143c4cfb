package models

import (
	"math"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
)

// Estimate constants. Four bytes a token is the usual figure for English
// and code under the BPE vocabularies in use; images are billed by size,
// which the request does not say, so they count as a typical screenshot.
const (
	defaultTokensPerByte = 0.25
	imageTokens          = 1_600
	messageOverhead      = 4 // role and framing tokens each message adds
)

// Size measures a request for the estimator: its text bytes (system prompt,
// tool schemas, every message part) and its fixed-cost items.
func Size(req *llm.Request) (bytes, fixed int) {
	bytes, fixed = headSize(req)
	// By index: a Part is large, and a long history would be copied part
	// by part on every estimate.
	for i := range req.Messages {
		b, f := messageSize(&req.Messages[i])
		bytes += b
		fixed += f
	}
	return bytes, fixed
}

// headSize is Size of what a request holds beside its messages.
func headSize(req *llm.Request) (bytes, fixed int) {
	bytes = len(req.System)
	for _, t := range req.Tools {
		bytes += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	return bytes, 0
}

// messageSize is Size of one message.
func messageSize(m *llm.Message) (bytes, fixed int) {
	fixed = messageOverhead
	for j := range m.Content {
		b, f := partSize(&m.Content[j])
		bytes += b
		fixed += f
	}
	return bytes, fixed
}

func partSize(p *llm.Part) (bytes, fixed int) {
	if p.Type == llm.PartImage {
		return 0, imageTokens
	}
	bytes = len(p.Text) + len(p.ToolName) + len(p.ToolCallID) + len(p.Input)
	for i := range p.Images() {
		_, f := partSize(&p.PartRare.Images[i])
		fixed += f
	}
	return bytes, fixed
}

// Estimator estimates a request's input tokens before it is sent and
// corrects itself, per model, by the input the provider reports. It is
// safe for concurrent use.
type Estimator struct {
	mu    sync.Mutex
	ratio map[string]float64 // tokens per byte, by model
}

// Measure is what the estimator reads of a request: its model and Size.
// Measuring walks the whole history, so a caller that both estimates a
// request and calibrates from it measures once.
type Measure struct {
	Model        string
	Bytes, Fixed int
}

// MeasureOf measures req.
func MeasureOf(req *llm.Request) Measure {
	bytes, fixed := Size(req)
	return Measure{Model: req.Model, Bytes: bytes, Fixed: fixed}
}

// Estimate returns the input tokens req is expected to cost.
func (e *Estimator) Estimate(req *llm.Request) int { return e.EstimateMeasure(MeasureOf(req)) }

// EstimateMeasure returns the input tokens a request measuring m is
// expected to cost.
func (e *Estimator) EstimateMeasure(m Measure) int {
	return int(math.Ceil(float64(m.Bytes)*e.ratioOf(m.Model))) + m.Fixed
}

// Observe calibrates the model's ratio from a request the provider
// reported: input counts every prompt token, cached or not.
func (e *Estimator) Observe(req *llm.Request, input int) { e.ObserveMeasure(MeasureOf(req), input) }

// ObserveMeasure calibrates the model's ratio from a request measuring m
// that the provider reported input tokens for. Consecutive requests of a
// session share most of their bytes, so the last request's ratio predicts
// the next one well; a short average damps outliers.
func (e *Estimator) ObserveMeasure(m Measure, input int) {
	bytes, fixed := m.Bytes, m.Fixed
	if bytes < 256 || input <= fixed {
		return // too small to say anything about the ratio
	}
	r := float64(input-fixed) / float64(bytes)
	if r < 0.05 || r > 2 {
		return // not text the estimator models (or a server that miscounts)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ratio == nil {
		e.ratio = map[string]float64{}
	}
	if old, ok := e.ratio[m.Model]; ok {
		r = 0.3*old + 0.7*r
	}
	e.ratio[m.Model] = r
}

func (e *Estimator) ratioOf(model string) float64 {
	if e == nil {
		return defaultTokensPerByte
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if r, ok := e.ratio[model]; ok {
		return r
	}
	return defaultTokensPerByte
}

// Reported is the prompt size a provider reported in u: every input token,
// cached or not.
func Reported(u llm.Usage) int { return u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens }
