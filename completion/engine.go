package completion

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
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
	Budget           Budget // zero: DefaultBudget
	Log              *slog.Logger
}

// Defaults for what config.json leaves unset.
const (
	DefaultDebounce = 30 * time.Millisecond
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
		files: o.InstructionFiles, docs: map[string]*docState{}}
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
	e.mu.Lock()
	st := e.docs[req.Doc]
	if st == nil {
		st = &docState{}
		e.docs[req.Doc] = st
	}
	superseded := st.supersede()
	if !req.Invoked {
		if text, ok := st.cache.lookup(e.seed, req.Before, req.After); ok {
			e.stats.CacheHits++
			e.mu.Unlock()
			return Result{Text: text, From: "cache"}, nil
		}
	}
	j := st.job
	var typed string
	joined := false
	if j != nil && !req.Invoked {
		typed, joined = j.anchor.typed(e.seed, req.Before, req.After)
	}
	if joined {
		j.waiters++
		e.stats.Joined++
	}
	e.mu.Unlock()

	if !joined {
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
		e.mu.Lock()
		select {
		case <-superseded:
			e.mu.Unlock()
			return Result{From: "superseded"}, nil
		default:
		}
		j = e.start(st, &req)
		e.mu.Unlock()
	}
	select {
	case <-j.done:
	case <-superseded:
		e.leave(j)
		return Result{From: "superseded"}, nil
	case <-ctx.Done():
		e.leave(j)
		return Result{}, ctx.Err()
	}
	e.leave(j)
	if j.err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if errors.Is(j.err, context.Canceled) {
			return Result{From: "superseded"}, nil
		}
		return Result{}, j.err
	}
	if !joined {
		return Result{Text: j.text, From: "model"}, nil
	}
	if rest, ok := (&entry{text: j.text}).narrow(typed); ok {
		return Result{Text: rest, From: "joined"}, nil
	}
	return Result{From: "joined"}, nil
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
