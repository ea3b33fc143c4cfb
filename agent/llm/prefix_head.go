package llm

import (
	"bytes"
	"slices"
)

// headEntry is a request's encoding before its history, with the fields
// it was encoded from.
type headEntry struct {
	req  Request // Messages unset; tool schemas copied
	head []byte
}

// Head returns what build encodes of req before its history (every field
// but Messages), from the cache when a recent request had the same
// fields. The tool schemas are most of a request's fixed part: encoding
// them anew costs more than a turn's new messages. build must depend on
// nothing else that changes (a provider's own options do not). The bytes
// are shared and must not be written.
func (c *PrefixCache) Head(req *Request, build func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	for i, h := range c.heads {
		if sameHead(&h.req, req) {
			copy(c.heads[1:i+1], c.heads[:i]) // to the front, in place: a hit is every request
			c.heads[0] = h
			c.mu.Unlock()
			return h.head, nil
		}
	}
	c.mu.Unlock()
	head, err := build()
	if err != nil {
		return nil, err
	}
	h := &headEntry{req: *req, head: head[:len(head):len(head)]}
	h.req.Messages = nil
	h.req.Tools = slices.Clone(req.Tools)
	for i := range h.req.Tools {
		h.req.Tools[i].InputSchema = bytes.Clone(h.req.Tools[i].InputSchema)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heads = append([]*headEntry{h}, c.heads[:min(len(c.heads), prefixEntries-1)]...)
	return h.head, nil
}

func sameHead(a, b *Request) bool {
	if a.Model != b.Model || a.System != b.System || a.MaxTokens != b.MaxTokens || a.Effort != b.Effort || a.CacheKey != b.CacheKey || len(a.Tools) != len(b.Tools) {
		return false
	}
	for i := range a.Tools {
		x, y := &a.Tools[i], &b.Tools[i]
		if x.Name != y.Name || x.Description != y.Description || !bytes.Equal(x.InputSchema, y.InputSchema) {
			return false
		}
	}
	return true
}
