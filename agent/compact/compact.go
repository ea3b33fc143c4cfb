package compact

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
)

// Options say how far to compact and give the package what it cannot know:
// token counts and the model.
type Options struct {
	// Target is the most tokens the history should take afterwards.
	Target int
	// Keep is how many tokens of the most recent history stay verbatim
	// when older turns are summarised.
	Keep int
	// Force summarises older turns even when stubbing tool outputs alone
	// reaches Target (the user asked for /compact).
	Force bool
	// Focus is what the user wants the summary to keep ("/compact FOCUS").
	Focus string

	// MessageTokens estimates one message as a request would count it.
	MessageTokens func(llm.Message) int
	// TextTokens estimates a string's tokens.
	TextTokens func(string) int
	// PieceTokens is the most transcript one summary request may carry;
	// a longer transcript is summarised in pieces.
	PieceTokens int
	// Summarize asks the model for a summary; system and user are the
	// request's system prompt and only message.
	Summarize func(ctx context.Context, system, user string) (string, error)
	// Reinjected marks parts the caller puts back after a summary (the
	// workspace instructions); they are dropped from the compacted history
	// so they appear once. Nil: none.
	Reinjected func(llm.Part) bool
}

// Result is a compacted history and what it took.
type Result struct {
	History    []llm.Message
	Stubbed    int    // tool outputs replaced by a stub
	Summarized int    // messages replaced by the summary; 0 when stubbing was enough
	Pieces     int    // summary requests that succeeded
	Summary    string // the summary the model wrote; "" when stubbing was enough
	Before     int    // tokens of the history before
	After      int    // and after
}

// ErrNothingToCompact is returned when the history has no earlier turn to
// summarise and no tool output to stub.
var ErrNothingToCompact = errors.New("compact: nothing to compact")

// Compact returns a shorter copy of history; history itself is not
// changed. The copy starts with a user message and keeps every tool call
// beside its result. Stubbing comes first; when the result is still over
// Target (or Force is set) the turns before the most recent Keep tokens
// are summarised. When even the most recent turn is over Target, its tool
// outputs are stubbed too, newest last: a session must survive a single
// tool output larger than the window.
func Compact(ctx context.Context, history []llm.Message, o Options) (Result, error) {
	h := cloneHistory(history)
	tok := tokens(h, o.MessageTokens)
	r := Result{Before: sum(tok)}
	r.Stubbed = stub(h, tok, o.Target, tailStart(h), o.MessageTokens)
	c := cut(h, tok, o.Keep)
	if !o.Force && sum(tok) <= o.Target || c == 0 {
		r.Stubbed += stub(h, tok, o.Target, len(h), o.MessageTokens)
		if r.Stubbed == 0 && c == 0 {
			return Result{}, ErrNothingToCompact
		}
		r.History, r.After = h, sum(tok)
		return r, nil
	}
	// The summary reads the turns as the model saw them, not their stubs;
	// the transcript caps each output instead.
	old, kept := history[:c], h[c:]
	summary, pieces, err := summarize(ctx, old, o)
	if err != nil {
		return Result{}, err
	}
	out := []llm.Message{head(old, kept, summary, o.Reinjected)}
	out = append(out, dropReinjected(kept, o.Reinjected)...)
	if out[len(out)-1].Role == llm.RoleUser && len(out) == 1 {
		// Nothing recent was kept: the model's turn closes the head, so
		// the next prompt follows a reply as it always does.
		out = append(out, llm.Text(llm.RoleAssistant, Acknowledgement))
	}
	tok = tokens(out, o.MessageTokens)
	stub(out, tok, o.Target, len(out), o.MessageTokens)
	r.History, r.Summarized, r.Pieces, r.After, r.Summary = out, c, pieces, sum(tok), summary
	r.Stubbed = newStubs(history[c:], out)
	return r, nil
}

// newStubs counts the stubs in out that replaced an output of before:
// stubs of summarised turns went with them and do not count.
func newStubs(before, out []llm.Message) int {
	was := map[string]bool{}
	for _, m := range before {
		for _, p := range m.Content {
			if p.Type == llm.PartToolResult {
				was[p.ToolCallID] = strings.HasPrefix(p.Text, StubPrefix)
			}
		}
	}
	n := 0
	for _, m := range out {
		for _, p := range m.Content {
			if stubbed, ok := was[p.ToolCallID]; ok && !stubbed && p.Type == llm.PartToolResult && strings.HasPrefix(p.Text, StubPrefix) {
				n++
			}
		}
	}
	return n
}

// Acknowledgement is the model's side of a compacted history that kept no
// recent turn.
const Acknowledgement = "Understood. I will continue from this summary."

// cut picks where the verbatim tail starts: the earliest assistant message
// (or the end, after a complete exchange) whose tail fits keep; when none
// fits, the latest such point. 0 means there is nothing before it to
// summarise. Starting the tail at an assistant message keeps every tool
// call with its result, and the summary (a user message) goes before it.
func cut(h []llm.Message, tok []int, keep int) int {
	n := len(h)
	best, latest := 0, 0
	suffix := 0
	for i := n; i >= 1; i-- {
		if i < n {
			suffix += tok[i]
		}
		ok := (i < n && h[i].Role == llm.RoleAssistant) || (i == n && h[n-1].Role == llm.RoleAssistant)
		if !ok {
			continue
		}
		if latest == 0 {
			latest = i
		}
		if suffix <= keep {
			best = i
		}
	}
	if best == 0 {
		return latest
	}
	return best
}

// tailStart is the index of the last assistant message: what follows it
// the model has not answered yet, so the stub step leaves it for last.
func tailStart(h []llm.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == llm.RoleAssistant {
			return i
		}
	}
	return 0
}

func tokens(h []llm.Message, count func(llm.Message) int) []int {
	tok := make([]int, len(h))
	for i, m := range h {
		tok[i] = count(m)
	}
	return tok
}

func sum(tok []int) int {
	n := 0
	for _, t := range tok {
		n += t
	}
	return n
}

// cloneHistory copies the messages and their part slices, so stubbing
// rewrites the copy only. The parts' rare fields (llm.PartRare) stay
// shared with history's: a rewrite replaces them (Part.WithoutImages),
// never writes them.
func cloneHistory(h []llm.Message) []llm.Message {
	out := make([]llm.Message, len(h))
	for i, m := range h {
		out[i] = llm.Message{Role: m.Role, Content: slices.Clone(m.Content)}
	}
	return out
}

// dropReinjected removes the parts the caller re-injects, merging the
// messages that removal leaves next to one of the same role.
func dropReinjected(h []llm.Message, reinjected func(llm.Part) bool) []llm.Message {
	if reinjected == nil {
		return h
	}
	var out []llm.Message
	for _, m := range h {
		content := slices.DeleteFunc(slices.Clone(m.Content), reinjected)
		if len(content) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1].Content = append(out[n-1].Content, content...)
			continue
		}
		out = append(out, llm.Message{Role: m.Role, Content: content})
	}
	return out
}
