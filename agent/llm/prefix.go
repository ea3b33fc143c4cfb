package llm

import (
	"bytes"
	"sync"
)

// prefixEntries is how many recent conversations a PrefixCache keeps: one
// per session working at once is enough, a few more cover forks.
const prefixEntries = 4

// PrefixCache keeps the encoded messages of a provider's recent requests.
// A session's history only grows, and a message is encoded the same in
// every request that carries it, so the next request copies the bytes it
// shares with an earlier one and encodes only what is new: a turn's cost
// stays flat as the history grows. A change before the messages (model,
// system prompt, tools) changes the head and so misses; a history
// rewritten by compaction or cut by a fork matches only up to where it
// differs. The zero value is ready to use; it is safe for concurrent use.
type PrefixCache struct {
	mu      sync.Mutex
	entries []*prefixEntry // most recently used first
	heads   []*headEntry   // most recently used first
}

// prefixEntry is one request's body up to the end of its cached
// messages, in segments: head, then the messages' encodings. Segments are
// never written once made, so requests in flight share them; msgs and parts
// are extended in place by at most one later entry (the one that claims
// grown), which writes only past this entry's length.
type prefixEntry struct {
	head  []byte
	segs  [][]byte
	msgs  []keptMessage // what the encoded messages were, to recognise them
	parts []keptPart    // their parts, back to back (keptMessage.parts ends each)
	grown bool
}

// AppendMessage appends the encoding of message i of a request to dst;
// prev is the byte the encoding follows in the body (the last of head or
// of the message before), for an encoder that must know whether a
// separator is due.
type AppendMessage func(dst []byte, prev byte, i int, m *Message) ([]byte, error)

// Encode returns the body of a request as segments to send back to back:
// head, then the encodings of msgs (each appended by appendMsg), those of
// the leading messages a recent request with the same head shares taken
// from the cache. The segments are shared and must not be written; the
// caller appends the rest of its request as a segment of its own. A turn
// encodes only its new messages and copies no earlier bytes but the
// amortized merging of small segments (see mergeSegments).
func (c *PrefixCache) Encode(head []byte, msgs []Message, appendMsg AppendMessage) ([][]byte, error) {
	prev, same, inPlace := c.lookup(head, msgs)
	e := &prefixEntry{head: head}
	switch {
	case prev == nil || same == 0:
		e.segs = [][]byte{head}
		e.msgs = make([]keptMessage, 0, len(msgs))
	case inPlace:
		e.segs = cutSegments(prev.segs, prev.msgs[same-1].end)
		e.msgs, e.parts = prev.msgs, prev.parts
	default:
		e.segs = cutSegments(prev.segs, prev.msgs[same-1].end)
		e.msgs = append(make([]keptMessage, 0, len(msgs)+16), prev.msgs[:same]...)
		e.parts = append([]keptPart(nil), prev.parts[:prev.msgs[same-1].parts]...)
	}
	end := 0
	for _, s := range e.segs {
		end += len(s)
	}
	last := e.segs[len(e.segs)-1]
	var buf []byte
	var err error
	for i := len(e.msgs); i < len(msgs); i++ {
		before := last[len(last)-1]
		if len(buf) > 0 {
			before = buf[len(buf)-1]
		}
		from := len(buf)
		if buf, err = appendMsg(buf, before, i, &msgs[i]); err != nil {
			return nil, err
		}
		e.parts = keepParts(e.parts, &msgs[i], buf[from:], end+from)
		e.msgs = append(e.msgs, keptMessage{role: roleCode(msgs[i].Role), parts: int32(len(e.parts)), end: end + len(buf)})
	}
	if len(buf) > 0 {
		e.segs = mergeSegments(append(e.segs, buf))
	}
	if len(e.msgs) > 0 { // an empty entry would only push out a useful one
		c.store(prev, e)
	}
	return e.segs[:len(e.segs):len(e.segs)], nil
}

// cutSegments returns the first n bytes of segs as a new list.
func cutSegments(segs [][]byte, n int) [][]byte {
	out := make([][]byte, 0, len(segs)+1)
	for _, s := range segs {
		if len(s) >= n {
			return append(out, s[:n:n])
		}
		out = append(out, s)
		n -= len(s)
	}
	return out
}

// mergeSegments joins the last two segments while the one before is no
// longer than the last, as a binary counter carries: a body of n bytes
// stays in O(log n) segments and each byte is copied O(log n) times over
// a session, where copying the whole prefix would cost O(n) every turn.
func mergeSegments(segs [][]byte) [][]byte {
	for n := len(segs); n >= 2 && len(segs[n-2]) <= len(segs[n-1]); n = len(segs) {
		joined := make([]byte, 0, len(segs[n-2])+len(segs[n-1]))
		joined = append(append(joined, segs[n-2]...), segs[n-1]...)
		segs = append(segs[:n-2], joined)
	}
	return segs
}

// lookup returns the entry sharing head and the longest run of leading
// messages with msgs, and that run's length. When the run is the whole
// entry and no one has grown it yet, it claims the entry for growing in
// place (inPlace).
func (c *PrefixCache) lookup(head []byte, msgs []Message) (best *prefixEntry, n int, inPlace bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	bestN := -1
	for _, e := range c.entries {
		if !bytes.Equal(e.head, head) {
			continue
		}
		k := e.sharedRun(msgs)
		if k > bestN {
			best, bestN = e, k
		}
	}
	if best == nil || bestN <= 0 {
		return nil, 0, false
	}
	if bestN == len(best.msgs) && !best.grown {
		best.grown, inPlace = true, true
	}
	return best, bestN, inPlace
}

// store puts e first, replacing old (the entry it extends) or the least
// recently used one.
func (c *PrefixCache) store(old, e *prefixEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := []*prefixEntry{e}
	for _, x := range c.entries {
		if x != old && len(kept) < prefixEntries {
			kept = append(kept, x)
		}
	}
	c.entries = kept
}
