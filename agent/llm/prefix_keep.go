package llm

import (
	"bytes"
	"encoding/json"
	"maps"
	"unsafe"
)

// keptMessage is what the prefix cache keeps of a message to tell later
// whether a request still carries it unchanged, and where its encoding
// ends. Its parts are kept apart, back to back in one slice for the whole
// history (a slice per message would cost an allocation and a header
// each). The kept parts hold copies, not the history's own parts, so a
// history changed in place (a part rewritten) no longer matches the bytes
// kept for it. Strings are immutable and stay shared with the history.
type keptMessage struct {
	end   int   // where its encoding ends, from the start of head
	parts int32 // where its parts end in prefixEntry.parts
	role  uint8 // roleCode
}

// roleCode and typeCode number the roles and part types this package
// names, so a kept message and part hold a byte, not a string header.
// Any other value is 0, which never matches: a message carrying one is
// encoded anew each time, which costs time but never sends wrong bytes.
func roleCode(r Role) uint8 {
	switch r {
	case RoleUser:
		return 1
	case RoleAssistant:
		return 2
	}
	return 0
}

func typeCode(t PartType) uint8 {
	switch t {
	case PartText:
		return 1
	case PartImage:
		return 2
	case PartThinking:
		return 3
	case PartToolUse:
		return 4
	case PartToolResult:
		return 5
	}
	return 0
}

// keptPart holds a part's type and text, which is all most parts of a
// long history set; a part setting anything else (a tool call or result,
// an image, a thinking signature) has the rest in more. Keeping every
// field for every part would take more than the text itself.
type keptPart struct {
	text string
	more *keptMore
	typ  uint8 // typeCode
}

// keptMore is the rest of a kept part: the tool fields, and the whole
// part when it sets a rare field (images, thinking, replayed extras).
type keptMore struct {
	id, name string
	// The tool input: where its bytes lie verbatim in the body when the
	// encoding holds them so (inputAt, inputLen), or else a copy (input).
	// Either tells an input rewritten in place, but a copy holds it a
	// second time besides its encoding, and a call's input can be a whole
	// file.
	input    []byte
	inputAt  int
	inputLen int
	isError  bool
	rare     *Part
}

// keepParts appends what is kept of m's parts to dst; enc is m's
// encoding, which starts at offset at of the body.
func keepParts(dst []keptPart, m *Message, enc []byte, at int) []keptPart {
	from := 0 // parts are encoded in order: look for each input after the last
	for i := range m.Content {
		p := &m.Content[i]
		k := keptPart{typ: typeCode(p.Type), text: p.Text}
		if p.ToolCallID != "" || p.ToolName != "" || len(p.Input) > 0 || p.IsError || hasRare(p) {
			k.more = &keptMore{id: p.ToolCallID, name: p.ToolName, inputLen: len(p.Input), isError: p.IsError}
			if j := bytes.Index(enc[from:], p.Input); len(p.Input) > 0 && j >= 0 {
				k.more.inputAt = at + from + j
				from += j + len(p.Input)
			} else if len(p.Input) > 0 {
				k.more.input = bytes.Clone(p.Input)
			}
			if hasRare(p) {
				k.more.rare = clonePart(p)
			}
		}
		dst = append(dst, k)
	}
	return dst
}

// sharedRun returns how many leading messages of msgs e kept unchanged.
func (e *prefixEntry) sharedRun(msgs []Message) int {
	var from int32
	body := bodyCursor{segs: e.segs}
	for k := range min(len(e.msgs), len(msgs)) {
		if !sameMessage(&e.msgs[k], e.parts[from:e.msgs[k].parts], &msgs[k], &body) {
			return k
		}
		from = e.msgs[k].parts
	}
	return min(len(e.msgs), len(msgs))
}

// bodyCursor reads an entry's body, in segments, at offsets that never
// decrease from one call to the next: the kept inputs, in message order.
type bodyCursor struct {
	segs  [][]byte
	i     int // the segment at or before the last offset read
	start int // where segs[i] starts
}

// equal reports whether the body holds b at offset at.
func (c *bodyCursor) equal(at int, b []byte) bool {
	for c.i < len(c.segs) && c.start+len(c.segs[c.i]) <= at {
		c.start += len(c.segs[c.i])
		c.i++
	}
	i, start := c.i, c.start
	for len(b) > 0 {
		if i >= len(c.segs) {
			return false
		}
		s := c.segs[i][at-start:]
		n := min(len(s), len(b))
		if !bytes.Equal(s[:n], b[:n]) {
			return false
		}
		b, at, start, i = b[n:], at+n, start+len(c.segs[i]), i+1
	}
	return true
}

// sameMessage reports whether m is the message k (with its parts) was
// kept from, unchanged.
func sameMessage(k *keptMessage, parts []keptPart, m *Message, body *bodyCursor) bool {
	if k.role == 0 || k.role != roleCode(m.Role) || len(parts) != len(m.Content) {
		return false
	}
	for i := range parts {
		if !parts[i].same(&m.Content[i], body) {
			return false
		}
	}
	return true
}

// same compares a kept part with p. Most strings of a long history are
// shared with the kept copy, so lengths and pointers decide before any
// content is compared.
func (k *keptPart) same(p *Part, body *bodyCursor) bool {
	if k.typ == 0 || k.typ != typeCode(p.Type) || !sameString(k.text, p.Text) {
		return false
	}
	m := k.more
	if m == nil {
		return p.ToolCallID == "" && p.ToolName == "" && len(p.Input) == 0 && !p.IsError && !hasRare(p)
	}
	if !sameString(m.id, p.ToolCallID) || !sameString(m.name, p.ToolName) ||
		m.inputLen != len(p.Input) || m.isError != p.IsError {
		return false
	}
	if m.input != nil && !bytes.Equal(m.input, p.Input) || m.input == nil && m.inputLen > 0 && !body.equal(m.inputAt, p.Input) {
		return false
	}
	if m.rare == nil {
		return !hasRare(p)
	}
	return samePart(m.rare, p)
}

// hasRare reports whether p sets a field keptPart does not hold.
func hasRare(p *Part) bool { return p.PartRare != nil && !p.PartRare.empty() }

// samePart compares two parts field by field. Extra is ranged over only
// when it holds something: ranging over even an empty map costs more than
// all the other fields.
func samePart(a, b *Part) bool {
	if !sameString(string(a.Type), string(b.Type)) || !sameString(a.Text, b.Text) ||
		!sameString(a.ToolCallID, b.ToolCallID) || !sameString(a.ToolName, b.ToolName) ||
		!bytes.Equal(a.Input, b.Input) || a.IsError != b.IsError {
		return false
	}
	x, y := a.rare(), b.rare()
	if !sameString(x.MediaType, y.MediaType) || !sameString(x.Data, y.Data) ||
		!sameString(x.Signature, y.Signature) || !sameString(x.Redacted, y.Redacted) ||
		len(x.Images) != len(y.Images) || len(x.Extra) != len(y.Extra) ||
		len(x.Extra) > 0 && !maps.EqualFunc(x.Extra, y.Extra, sameRaw) {
		return false
	}
	for i := range x.Images {
		if !samePart(&x.Images[i], &y.Images[i]) {
			return false
		}
	}
	return true
}

// sameString is a == b without a call into the runtime for the common
// cases: different lengths, empty, or the same bytes.
func sameString(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

func sameRaw(a, b json.RawMessage) bool { return bytes.Equal(a, b) }

// clonePart copies p deeply enough that changing the original in place
// leaves the copy as it was.
func clonePart(p *Part) *Part {
	c := *p
	c.Input = bytes.Clone(p.Input)
	if p.PartRare == nil {
		return &c
	}
	r := *p.PartRare
	c.PartRare = &r
	if p.PartRare.Images != nil {
		r.Images = make([]Part, len(p.PartRare.Images))
		for i := range p.PartRare.Images {
			r.Images[i] = *clonePart(&p.PartRare.Images[i])
		}
	}
	if p.PartRare.Extra != nil {
		r.Extra = make(map[string]json.RawMessage, len(p.PartRare.Extra))
		for k, v := range p.PartRare.Extra {
			r.Extra[k] = bytes.Clone(v)
		}
	}
	return &c
}
