package anthropic

import (
	"bytes"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
)

// headEntries is how many request heads keep their encoding: a session's
// mode or model changes the head, and sessions may differ.
const headEntries = 4

// headKey is everything the body before `"messages":[` depends on.
type headKey struct {
	model     string
	maxTokens int
	budget    int
	system    string
	tools     []llm.ToolSpec
}

func (k *headKey) equal(o *headKey) bool {
	return k.model == o.model && k.maxTokens == o.maxTokens && k.budget == o.budget &&
		k.system == o.system && slices.EqualFunc(k.tools, o.tools, func(a, b llm.ToolSpec) bool {
		return a.Name == b.Name && a.Description == b.Description && bytes.Equal(a.InputSchema, b.InputSchema)
	})
}

// headCache keeps the encoded heads of recent requests. The head (system
// prompt and tool schemas, tens of kilobytes) is the same in every request
// of a session, and encoding/json re-validates each schema every time it
// is marshalled: a hit costs a comparison instead.
type headCache struct {
	mu      sync.Mutex
	entries []headEntry // most recently used first
}

type headEntry struct {
	key  headKey
	head []byte // capacity clipped: whoever appends to it copies
}

func (c *headCache) get(k *headKey) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key.equal(k) {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.head
		}
	}
	return nil
}

// put keeps head for k; k's tools are copied, so a caller that changes
// its specs later cannot change what the cache compares against.
func (c *headCache) put(k headKey, head []byte) []byte {
	k.tools = slices.Clone(k.tools)
	for i := range k.tools {
		k.tools[i].InputSchema = bytes.Clone(k.tools[i].InputSchema)
	}
	head = slices.Clip(head)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.Insert(c.entries, 0, headEntry{key: k, head: head})
	if len(c.entries) > headEntries {
		c.entries = c.entries[:headEntries]
	}
	return head
}

// encodeHead returns the request's body up to and including
// `"messages":[`, from the cache when a recent request had the same head.
func (p *Provider) encodeHead(req *llm.Request) ([]byte, error) {
	k := headKey{model: req.Model, maxTokens: req.MaxTokens, system: req.System, tools: req.Tools}
	if k.maxTokens <= 0 {
		k.maxTokens = p.opts.MaxTokens
	}
	k.budget = thinkingBudget(req.Effort, p.opts.ThinkingBudget)
	if head := p.head.get(&k); head != nil {
		return head, nil
	}
	head, err := encodeHead(&k)
	if err != nil {
		return nil, err
	}
	return p.head.put(k, head), nil
}
