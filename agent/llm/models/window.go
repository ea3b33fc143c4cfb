package models

import (
	"context"
	"fmt"
	"sync"
)

// DefaultContext is the window assumed for a model nobody knows: small
// enough that every model tandem is likely to meet holds it, so compaction
// starts too early rather than too late.
const DefaultContext = 32_768

// Source says where a window came from.
type Source string

const (
	FromEnv      Source = "TANDEM_CONTEXT_WINDOW"
	FromConfig   Source = "config.json contextWindows"
	FromServer   Source = "server"
	FromBuiltin  Source = "built-in table"
	FromFallback Source = "default"
	FromRefusal  Source = "learned from the server's refusal, kept in " + LimitsFileName
)

// Windows resolves context windows. The order is the configuration's:
// the environment (for the current model only), then config.json, then
// what the server reported, then the built-in table, then DefaultContext.
// A limit the server stated by refusing a longer request (Refused) lowers
// whichever window that gives: the server decides what it accepts, and a
// window believed larger than that only makes every request overflow.
// It is safe for concurrent use.
type Windows struct {
	// Env is TANDEM_CONTEXT_WINDOW (0: unset). It applies to Current.
	Env     int
	Current string
	// Config is config.json's contextWindows, by model id.
	Config map[string]int
	// Notice is called once per model that falls back to DefaultContext,
	// with a sentence for the user. May be nil.
	Notice func(msg string)
	// Probe, when not nil, asks a server which windows it serves and
	// records them with Learn; it bounds its own time and ends early when
	// ctx does. It runs once: from Settle, which an agent calls off the
	// start-up path, or else at the first Lookup that needs a server's
	// answer. A Lookup while it runs waits for it, so no answer is given
	// without what the server reports.
	Probe func(ctx context.Context)
	// Endpoint names the server the windows are for (models.Endpoint of
	// its base URL): the key of the limits kept in Limits.
	Endpoint string
	// Limits keeps the limits Refused learns across processes. Nil: they
	// last as long as the Windows.
	Limits *LimitFile

	probe sync.Once

	mu         sync.Mutex // guards the fields below
	discovered map[string]int
	outputs    map[string]int // model -> the output limit a listing reported
	noticed    map[string]bool
	refused    map[string]int // model -> the most tokens its server takes
	loaded     bool           // refused holds what Limits kept
}

// Learn records a window a server reported for model.
func (w *Windows) Learn(model string, tokens int) {
	if tokens <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.discovered == nil {
		w.discovered = map[string]int{}
	}
	w.discovered[model] = tokens
}

// LearnLimits records what a provider's model listing reports for
// model: its window and its output limit (Gemini's inputTokenLimit and
// outputTokenLimit). Zero limits are not known and change nothing.
func (w *Windows) LearnLimits(model string, l Limits) {
	w.Learn(model, l.Context)
	if l.Output <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.outputs == nil {
		w.outputs = map[string]int{}
	}
	w.outputs[model] = l.Output
}

// Settle runs Probe unless it has run or is running, and returns when it
// is done.
func (w *Windows) Settle(ctx context.Context) {
	if w != nil && w.Probe != nil {
		w.probe.Do(func() { w.Probe(ctx) })
	}
}

// Refused records that the server refuses requests for model over tokens,
// and keeps that in Limits. It reports whether the window went down (false
// when it was at or below tokens already); err says the limit could not
// be kept for later processes, though it holds in this one.
func (w *Windows) Refused(model string, tokens int) (lowered bool, err error) {
	if w == nil || tokens <= 0 {
		return false, nil
	}
	l, _ := w.resolve(model)
	w.mu.Lock()
	w.loadLocked()
	if n := w.refused[model]; n > 0 {
		l.Context = min(l.Context, n)
	}
	if tokens >= l.Context {
		w.mu.Unlock()
		return false, nil
	}
	w.refused[model] = tokens
	w.mu.Unlock()
	if w.Limits != nil && w.Endpoint != "" {
		err = w.Limits.Put(w.Endpoint, model, tokens)
	}
	return true, err
}

// loadLocked reads the limits kept for Endpoint, once; w.mu is held. A
// file that cannot be read is told (Notice) and keeps none.
func (w *Windows) loadLocked() {
	if w.loaded {
		return
	}
	w.loaded = true
	w.refused = map[string]int{}
	if w.Limits == nil || w.Endpoint == "" {
		return
	}
	kept, err := w.Limits.Load(w.Endpoint)
	if err != nil && w.Notice != nil {
		w.Notice(fmt.Sprintf("the context limits learned from servers' refusals are not read: %v", err))
	}
	for m, n := range kept {
		w.refused[m] = n
	}
}

// Lookup returns model's limits and where the window came from. Output
// comes from the table when known; overrides change only the window.
func (w *Windows) Lookup(model string) (Limits, Source) {
	l, src := w.resolve(model)
	if w == nil {
		return l, src
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.loadLocked()
	if n := w.refused[model]; n > 0 && n < l.Context {
		l.Context, src = n, FromRefusal
	}
	return l, src
}

// resolve is Lookup without what refusals taught.
func (w *Windows) resolve(model string) (Limits, Source) {
	l, known := Builtin(model)
	if w == nil {
		if !known {
			l.Context = DefaultContext
			return l, FromFallback
		}
		return l, FromBuiltin
	}
	if w.Env > 0 && (w.Current == "" || model == w.Current) {
		l.Context = w.Env
		return l, FromEnv
	}
	if n := w.Config[model]; n > 0 {
		l.Context = n
		return l, FromConfig
	}
	w.Settle(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := w.outputs[model]; n > 0 {
		l.Output = n
	}
	if n := w.discovered[model]; n > 0 {
		l.Context = n
		return l, FromServer
	}
	if known {
		return l, FromBuiltin
	}
	l.Context = DefaultContext
	w.loadLocked()
	// A refusal that set a lower limit is the window; the guess is moot.
	if !w.noticed[model] && (w.refused[model] == 0 || w.refused[model] >= DefaultContext) {
		if w.noticed == nil {
			w.noticed = map[string]bool{}
		}
		w.noticed[model] = true
		if w.Notice != nil {
			w.Notice(fmt.Sprintf("the context window of model %q is unknown; assuming %d tokens (set contextWindows in config.json or TANDEM_CONTEXT_WINDOW)", model, DefaultContext))
		}
	}
	return l, FromFallback
}

// Window is Lookup's context window alone.
func (w *Windows) Window(model string) int {
	l, _ := w.Lookup(model)
	return l.Context
}

// MaxOutput is the most output tokens a request for model should ask for,
// given configured (config.json maxTokens; 0: unset). A limit the
// provider's own listing states for the model caps it: a provider refuses
// a request asking for more than the model can write. Unset, it is that
// listed limit for a model the built-in table knows no output limit of
// (the provider's default may not fit such a model), and otherwise 0,
// which leaves the choice to the provider.
func (w *Windows) MaxOutput(model string, configured int) int {
	if w == nil {
		return configured
	}
	w.Settle(context.Background())
	w.mu.Lock()
	listed := w.outputs[model]
	w.mu.Unlock()
	switch {
	case listed <= 0:
		return configured
	case configured > 0:
		return min(configured, listed)
	}
	if l, _ := Builtin(model); l.Output > 0 {
		return 0
	}
	return listed
}
