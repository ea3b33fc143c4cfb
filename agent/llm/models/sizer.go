package models

import "github.com/tandemhq/tandem/agent/llm"

// Sizer measures requests like MeasureOf, remembering what each message
// of the last history measured, so a long session's request costs a walk
// over the message headers, not over every part: the parts of a long
// history are scattered over the heap, and reading them all again at
// every request made the measure grow with the session (issue #30).
//
// A remembered message is reused only while the history holds the very
// same content at its place: the same backing array of parts, of the same
// length. Parts are not rewritten in place once in the history (AGENTS.md
// invariant 6; a compaction works on a copy), and keeping the array alive
// here means no other message can take its address. A zero Sizer is ready;
// it is not safe for concurrent use.
type Sizer struct {
	kept []sizedMessage
	// bytes and fixed are the sums over the messages kept.
	bytes, fixed int
}

// sizedMessage is a message measured: 16 bytes, a small part of what the
// message itself keeps, as the session's memory a turn is a goal too.
type sizedMessage struct {
	parts *llm.Part // the message's first part; nil when it has none
	n     int       // its number of parts
}

// Measure returns MeasureOf(req).
func (z *Sizer) Measure(req *llm.Request) Measure {
	bytes, fixed := headSize(req)
	b, f := z.messages(req.Messages)
	return Measure{Model: req.Model, Bytes: bytes + b, Fixed: fixed + f}
}

// messages sums the sizes of msgs, measuring only what it has not seen.
func (z *Sizer) messages(msgs []llm.Message) (bytes, fixed int) {
	same := 0
	for same < len(msgs) && same < len(z.kept) && z.kept[same].holds(&msgs[same]) {
		same++
	}
	if same < len(z.kept) {
		// A rewind or a compaction: rare, so the messages still held are
		// measured again rather than each remembering its own size.
		clear(z.kept[same:]) // let go of what the history no longer holds
		z.kept = z.kept[:same]
		z.bytes, z.fixed = 0, 0
		for i := range same {
			b, f := messageSize(&msgs[i])
			z.bytes += b
			z.fixed += f
		}
	}
	for i := same; i < len(msgs); i++ {
		m := &msgs[i]
		b, f := messageSize(m)
		z.bytes += b
		z.fixed += f
		k := sizedMessage{n: len(m.Content)}
		if k.n > 0 {
			k.parts = &m.Content[0]
		}
		z.kept = append(z.kept, k)
	}
	return z.bytes, z.fixed
}

func (k *sizedMessage) holds(m *llm.Message) bool {
	if len(m.Content) != k.n {
		return false
	}
	return k.n == 0 || &m.Content[0] == k.parts
}
