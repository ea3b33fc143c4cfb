package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
)

// encodeMessages returns the body in segments: head, msgs as the
// request's messages array, the closing "]}". Every message but the last
// is encoded the same in each request (the cache breakpoint moves with the
// last), so those come from the provider's prefix cache.
func (p *Provider) encodeMessages(head []byte, msgs []llm.Message) ([][]byte, error) {
	if len(msgs) == 0 {
		return [][]byte{head, []byte("]}")}, nil
	}
	body, err := p.prefix.Encode(head, msgs[:len(msgs)-1], func(dst []byte, _ byte, i int, m *llm.Message) ([]byte, error) {
		return appendMessage(dst, i, m, false)
	})
	if err != nil {
		return nil, err
	}
	tail, err := appendMessage(nil, len(msgs)-1, &msgs[len(msgs)-1], true)
	if err != nil {
		return nil, err
	}
	// The closing bytes are a segment of their own: appended to the tail
	// they copied it whole whenever it had no room left, as after a long
	// tool result.
	return append(body, tail, []byte("]}")), nil
}

// appendMessage appends message i to dst, after a comma unless it is the first;
// last puts the moving cache breakpoint on it.
func appendMessage(dst []byte, i int, m *llm.Message, last bool) ([]byte, error) {
	content, err := encodeParts(m.Content)
	if err != nil {
		return nil, fmt.Errorf("anthropic: message %d: %w", i, err)
	}
	w := []wireMessage{{Role: string(m.Role), Content: content}}
	if last {
		markLast(w)
	}
	if i > 0 {
		dst = append(dst, ',')
	}
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w[0]); err != nil {
		return nil, fmt.Errorf("anthropic: encoding message %d: %w", i, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
