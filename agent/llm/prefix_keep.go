package llm

import (
	"bytes"
	"encoding/json"
	"maps"
	"unsafe"
)

// keptMessage is what the prefix cache keeps of a message to tell later
// whether a request still carries it unchanged. It holds copies, not the
// history's own parts, so a history changed in place (a part rewritten)
// no longer matches the bytes kept for it. Strings are immutable and stay
// shared with the history.
type keptMessage struct {
	role  Role
	parts []keptPart
}

// keptPart holds the fields most parts use; a part that sets any other
// (images, thinking, replayed extras) is kept whole in rare. Keeping the
// whole Part for every part would double a long history's footprint.
type keptPart struct {
	typ      PartType
	text     string
	id, name string
	input    []byte
	isError  bool
	rare     *Part
}

func keep(m *Message) keptMessage {
	k := keptMessage{role: m.Role, parts: make([]keptPart, len(m.Content))}
	for i := range m.Content {
		p := &m.Content[i]
		k.parts[i] = keptPart{typ: p.Type, text: p.Text, id: p.ToolCallID, name: p.ToolName, input: bytes.Clone(p.Input), isError: p.IsError}
		if hasRare(p) {
			k.parts[i].rare = clonePart(p)
		}
	}
	return k
}

// same reports whether m is the message k was kept from, unchanged.
func (k *keptMessage) same(m *Message) bool {
	if !sameString(string(k.role), string(m.Role)) || len(k.parts) != len(m.Content) {
		return false
	}
	for i := range k.parts {
		if !k.parts[i].same(&m.Content[i]) {
			return false
		}
	}
	return true
}

// same compares a kept part with p. Most strings of a long history are
// shared with the kept copy, so lengths and pointers decide before any
// content is compared.
func (k *keptPart) same(p *Part) bool {
	if !sameString(string(k.typ), string(p.Type)) || !sameString(k.text, p.Text) ||
		!sameString(k.id, p.ToolCallID) || !sameString(k.name, p.ToolName) ||
		!bytes.Equal(k.input, p.Input) || k.isError != p.IsError {
		return false
	}
	if k.rare == nil {
		return !hasRare(p)
	}
	return samePart(k.rare, p)
}

// hasRare reports whether p sets a field keptPart does not hold.
func hasRare(p *Part) bool {
	return p.MediaType != "" || p.Data != "" || p.Signature != "" || p.Redacted != "" || len(p.Images) > 0 || len(p.Extra) > 0
}

// samePart compares two parts field by field. Extra is ranged over only
// when it holds something: ranging over even an empty map costs more than
// all the other fields.
func samePart(a, b *Part) bool {
	if !sameString(string(a.Type), string(b.Type)) || !sameString(a.Text, b.Text) ||
		!sameString(a.ToolCallID, b.ToolCallID) || !sameString(a.ToolName, b.ToolName) ||
		!sameString(a.MediaType, b.MediaType) || !sameString(a.Data, b.Data) ||
		!sameString(a.Signature, b.Signature) || !sameString(a.Redacted, b.Redacted) ||
		!bytes.Equal(a.Input, b.Input) || a.IsError != b.IsError ||
		len(a.Images) != len(b.Images) || len(a.Extra) != len(b.Extra) ||
		len(a.Extra) > 0 && !maps.EqualFunc(a.Extra, b.Extra, sameRaw) {
		return false
	}
	for i := range a.Images {
		if !samePart(&a.Images[i], &b.Images[i]) {
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
	if p.Images != nil {
		c.Images = make([]Part, len(p.Images))
		for i := range p.Images {
			c.Images[i] = *clonePart(&p.Images[i])
		}
	}
	if p.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(p.Extra))
		for k, v := range p.Extra {
			c.Extra[k] = bytes.Clone(v)
		}
	}
	return &c
}
