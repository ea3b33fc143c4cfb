package completion

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

// Options configure an Engine.
type Options struct {
	Config config.Completion
	// Chat and ChatModel serve provider "chat": the agent's own provider.
	Chat      llm.Provider
	ChatModel string
	// Transport sends the HTTP requests (agent/llm's; retries are off).
	Transport llm.Transport
	// InstructionFiles are the instruction file names (protected paths,
	// instructions.Config.FileNames).
	InstructionFiles []string
	// Home ($TANDEM_HOME) and UserHome (~) locate the user's deny rules,
	// which keep files from completions as they keep them from the agent.
	Home, UserHome string
	Budget         Budget // zero: DefaultBudget
	Log            *slog.Logger
}

// Defaults for what config.json leaves unset. The debounce is a little
// over the gap between keystrokes of someone typing 15 a second: while
// they type on, no model request starts only to be cancelled (a local
// server would spend its prefill on it); when they pause, one does.
const (
	DefaultDebounce = 75 * time.Millisecond
	DefaultMaxLines = 10
	singleTokens    = 64
	multiTokens     = 256
)

// Request is one inline completion asked for at a cursor.
type Request struct {
	Doc  string // the document's absolute path: its state's key
	Root string // the workspace folder holding it, "" if none
	// Before and After are the document's text on either side of the
	// cursor; when the editor's popup has an item selected, Before ends
	// with the item's text (the suggestion must continue it).
	Before, After string
	// Invoked: the user asked (no debounce, no cache); else automatic.
	Invoked bool
	Open    []OpenFile // other open buffers, most recently edited first
	Symbols Symbols    // the code index; nil: none yet
}

// Result is a suggestion: Text goes at the cursor. Empty means none.
type Result struct {
	Text string
	// From says where it came from: "model", "cache" (a suggestion typed
	// into), "joined" (the request in flight for an earlier keystroke),
	// or why there is none: "superseded", "excluded", "off".
	From string
}

// ErrOff is Complete's error when completions are not configured.
var ErrOff = errors.New("inline completions are not configured: set completion.provider in config.json or TANDEM_COMPLETION_PROVIDER")

// Engine serves inline completions for one front door connection.
type Engine struct {
	wire     wire
	cfg      config.Completion
	budget   Budget
	debounce time.Duration
	log      *slog.Logger
	seed     maphash.Seed
	files    []string // instruction file names
	life     context.Context
	stop     context.CancelFunc
	wg       sync.WaitGroup // the jobs' goroutines

	mu   sync.Mutex // guards docs and every docState in it
	docs map[string]*docState

	privacy privacy // its own lock
	instr   instructionsCache

	stats Stats // guarded by mu
}

// New returns an engine for a configuration, or ErrOff when it has no
// provider.
func New(o Options) (*Engine, error) {
	if !o.Config.Enabled() {
		return nil, ErrOff
	}
	w, err := newWire(o.Config, o)
	if err != nil {
		return nil, err
	}
	return newEngine(w, o), nil
}

func newEngine(w wire, o Options) *Engine {
	e := &Engine{wire: w, cfg: o.Config, budget: o.Budget, log: o.Log, seed: maphash.MakeSeed(),
		files: o.InstructionFiles, docs: map[string]*docState{}, privacy: privacy{home: o.Home, userHome: o.UserHome}}
	if e.budget == (Budget{}) {
		e.budget = DefaultBudget()
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	switch d := o.Config.DebounceMs; {
	case d < 0:
	case d == 0:
		e.debounce = DefaultDebounce
	default:
		e.debounce = time.Duration(d) * time.Millisecond
	}
	if e.cfg.MaxLines == 0 {
		e.cfg.MaxLines = DefaultMaxLines
	}
	e.life, e.stop = context.WithCancel(context.Background())
	return e
}

// Describe says where completions go, for tandem doctor and logs.
func (e *Engine) Describe() string { return e.cfg.Provider + ": " + e.wire.describe() }

// Close cancels the requests in flight and waits for them to end.
func (e *Engine) Close() {
	e.stop()
	e.wg.Wait()
}

// Forget drops a closed document's state, cancelling its request.
func (e *Engine) Forget(doc string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st := e.docs[doc]; st != nil {
		st.supersede()
		if st.job != nil {
			st.job.cancel()
		}
		delete(e.docs, doc)
	}
	e.privacy.forget(doc)
}

// Complete answers one request. It returns at once with an empty Result
// when a newer request for the same document arrives, and with ctx's
// error when ctx ends (the model request is cancelled unless a newer
// request waits for it too).
func (e *Engine) Complete(ctx context.Context, req Request) (Result, error) {
	if e.off(req.Root) {
		return Result{From: "off"}, nil
	}
	if !e.privacy.allowed(req.Root, req.Doc, e.files) {
		return Result{From: "excluded"}, nil
	}
	st, superseded, cached, hit := e.admit(&req)
	if hit {
		return cached, nil
	}
	if j, typed, ok := e.join(st, &req); ok {
		res, err, done := e.await(ctx, j, superseded, typed)
		if done {
			return res, err
		}
		// What came does not continue what was typed: ask anew.
	}
	if !req.Invoked && e.debounce > 0 {
		t := time.NewTimer(e.debounce)
		select {
		case <-t.C:
		case <-superseded:
			t.Stop()
			return Result{From: "superseded"}, nil
		case <-ctx.Done():
			t.Stop()
			return Result{}, ctx.Err()
		}
	}
	p, sh := e.prompt(&req)
	e.mu.Lock()
	select {
	case <-superseded:
		e.mu.Unlock()
		return Result{From: "superseded"}, nil
	default:
	}
	j := e.start(st, anchorOf(e.seed, req.Before, req.After), p, sh)
	e.mu.Unlock()
	res, err, _ := e.await(ctx, j, superseded, "")
	return res, err
}

// admit registers req as its document's newest request, releasing the
// one waiting, and answers it from the cache when the text at the cursor
// continues a suggestion (automatic requests only).
func (e *Engine) admit(req *Request) (st *docState, superseded <-chan struct{}, res Result, hit bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	st = e.docs[req.Doc]
	if st == nil {
		st = &docState{}
		e.docs[req.Doc] = st
	}
	superseded = st.supersede()
	if !req.Invoked {
		if text, ok := st.cache.lookup(e.seed, req.Before, req.After); ok {
			e.stats.CacheHits++
			return st, superseded, Result{Text: text, From: "cache"}, true
		}
	}
	return st, superseded, Result{}, false
}

// join makes req a waiter of the model request in flight when the text
// at the cursor continues the text it was asked at and what it streamed
// so far agrees with what was typed since.
func (e *Engine) join(st *docState, req *Request) (*job, string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	j := st.job
	if j == nil || req.Invoked {
		return nil, "", false
	}
	typed, ok := j.anchor.typed(e.seed, req.Before, req.After)
	if !ok || !strings.HasPrefix(j.partial, typed) && !strings.HasPrefix(typed, j.partial) {
		return nil, "", false
	}
	j.waiters++
	e.stats.Joined++
	return j, typed, true
}

// await waits for j's answer and narrows it by typed. done is false when
// the answer does not continue typed.
func (e *Engine) await(ctx context.Context, j *job, superseded <-chan struct{}, typed string) (res Result, err error, done bool) {
	select {
	case <-j.done:
	case <-superseded:
		e.leave(j)
		return Result{From: "superseded"}, nil, true
	case <-ctx.Done():
		e.leave(j)
		return Result{}, ctx.Err(), true
	}
	e.leave(j)
	switch {
	case j.err != nil && ctx.Err() != nil:
		return Result{}, ctx.Err(), true
	case j.err != nil && errors.Is(j.err, context.Canceled):
		return Result{From: "superseded"}, nil, true
	case j.err != nil:
		return Result{}, j.err, true
	case typed == "":
		return Result{Text: j.text, From: "model"}, nil, true
	}
	if rest, ok := (&entry{text: j.text}).narrow(typed); ok {
		return Result{Text: rest, From: "joined"}, nil, true
	}
	return Result{}, nil, j.text == typed
}

// leave is a waiter giving up its interest in j: the last one cancels it.
func (e *Engine) leave(j *job) {
	e.mu.Lock()
	defer e.mu.Unlock()
	j.waiters--
	if j.waiters <= 0 {
		j.cancel()
	}
}

// off reports whether the workspace turned completions off.
func (e *Engine) off(root string) bool {
	return root != "" && e.privacy.off(root)
}
