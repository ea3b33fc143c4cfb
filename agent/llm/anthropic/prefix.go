package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
)

// prefixEntries is how many recent conversations keep their encoding: one
// per session working at once is enough, a few more cover forks.
const prefixEntries = 4

// prefixCache keeps the encoded messages of recent requests. A session's
// history only grows, and every message but the last is encoded the same
// in each request (the cache breakpoint moves with the last), so the next
// request copies the bytes it shares with an earlier one and encodes only
// what is new: a turn's cost stays flat as the history grows.
type prefixCache struct {
	mu      sync.Mutex
	entries []*prefixEntry // most recently used first
}

// prefixEntry is one request's body up to its last message: head (up to
// `"messages":[`), then msgs encoded; ends[i] is where message i ends.
type prefixEntry struct {
	head []byte
	msgs []llm.Message
	body []byte
	ends []int
}

// lookup returns the entry sharing head and the longest run of leading
// messages with msgs, and that run's length.
func (c *prefixCache) lookup(head []byte, msgs []llm.Message) (*prefixEntry, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var best *prefixEntry
	bestN := -1
	for _, e := range c.entries {
		if !bytes.Equal(e.head, head) {
			continue
		}
		n := 0
		for n < len(e.msgs) && n < len(msgs) && sameMessage(&e.msgs[n], &msgs[n]) {
			n++
		}
		if n > bestN {
			best, bestN = e, n
		}
	}
	return best, max(bestN, 0)
}

// store puts e first, replacing old (the entry it extends) or the least
// recently used one.
func (c *prefixCache) store(old, e *prefixEntry) {
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

// encodeMessages appends msgs to head as the request's messages array and
// closes the body, reusing the cached encoding of the leading messages it
// shares with a recent request.
func (p *Provider) encodeMessages(head []byte, msgs []llm.Message) ([]byte, error) {
	if len(msgs) == 0 {
		return append(head, "]}"...), nil
	}
	prev, same := p.prefix.lookup(head, msgs[:len(msgs)-1])
	e := &prefixEntry{head: head, msgs: make([]llm.Message, 0, len(msgs)-1), ends: make([]int, 0, len(msgs)-1)}
	var body []byte
	if prev != nil && same > 0 {
		end := prev.ends[same-1]
		body = append(make([]byte, 0, end+end/4+4096), prev.body[:end]...)
		e.ends = append(e.ends, prev.ends[:same]...)
		e.msgs = append(e.msgs, prev.msgs[:same]...)
	} else {
		body = append(make([]byte, 0, len(head)+4096), head...)
		same = 0
	}
	var err error
	for i := same; i < len(msgs)-1; i++ {
		if body, err = appendMessage(body, i, msgs[i], false); err != nil {
			return nil, err
		}
		e.ends = append(e.ends, len(body))
		e.msgs = append(e.msgs, cloneMessage(msgs[i]))
	}
	e.body = body[:len(body):len(body)] // never appended to: the request's bytes follow in the same array
	p.prefix.store(prev, e)
	if body, err = appendMessage(body, len(msgs)-1, msgs[len(msgs)-1], true); err != nil {
		return nil, err
	}
	return append(body, "]}"...), nil
}

// appendMessage appends message i, after a comma unless it is the first;
// last puts the moving cache breakpoint on it.
func appendMessage(body []byte, i int, m llm.Message, last bool) ([]byte, error) {
	content, err := encodeParts(m.Content)
	if err != nil {
		return nil, fmt.Errorf("anthropic: message %d: %w", i, err)
	}
	w := []wireMessage{{Role: string(m.Role), Content: content}}
	if last {
		markLast(w)
	}
	if i > 0 {
		body = append(body, ',')
	}
	buf := bytes.NewBuffer(body)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w[0]); err != nil {
		return nil, fmt.Errorf("anthropic: encoding message %d: %w", i, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// sameMessage compares what the encoder reads of two messages. Strings
// shared with the history compare by pointer first, so a long unchanged
// history is checked quickly.
func sameMessage(a, b *llm.Message) bool {
	if a.Role != b.Role || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !samePart(&a.Content[i], &b.Content[i]) {
			return false
		}
	}
	return true
}

func samePart(a, b *llm.Part) bool {
	if a.Type != b.Type || a.Text != b.Text || a.MediaType != b.MediaType || a.Data != b.Data ||
		a.Signature != b.Signature || a.Redacted != b.Redacted || a.ToolCallID != b.ToolCallID ||
		a.ToolName != b.ToolName || !bytes.Equal(a.Input, b.Input) || a.IsError != b.IsError || len(a.Images) != len(b.Images) {
		return false
	}
	for i := range a.Images {
		if !samePart(&a.Images[i], &b.Images[i]) {
			return false
		}
	}
	return true
}

// cloneMessage copies what the cache compares, so a history changed in
// place later (a part rewritten) no longer matches the bytes kept for it.
func cloneMessage(m llm.Message) llm.Message {
	m.Content = slices.Clone(m.Content)
	for i := range m.Content {
		p := &m.Content[i]
		p.Input = bytes.Clone(p.Input)
		if p.Images != nil {
			p.Images = cloneMessage(llm.Message{Content: p.Images}).Content
		}
	}
	return m
}
