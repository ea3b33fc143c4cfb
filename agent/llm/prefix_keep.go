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
// kept for it; bytes the body holds verbatim are kept as where it holds
// them (keptSpan). Strings are immutable and stay shared with the history.
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
	input    keptSpan
	isError  bool
	rare     *keptRare
}

// keptRare is a part that sets a rare field: a copy of it but for its
// replayed extras, which are kept as spans.
type keptRare struct {
	part  *Part
	extra map[string]keptSpan
}

// keepParts appends what is kept of m's parts to dst; enc is m's
// encoding, which starts at offset at of the body.
func keepParts(dst []keptPart, m *Message, enc []byte, at int) []keptPart {
	for i := range m.Content {
		p := &m.Content[i]
		k := keptPart{typ: typeCode(p.Type), text: p.Text}
		if p.ToolCallID != "" || p.ToolName != "" || len(p.Input) > 0 || p.IsError || hasRare(p) {
			k.more = &keptMore{id: p.ToolCallID, name: p.ToolName, input: keepSpan(p.Input, enc, at), isError: p.IsError}
			if hasRare(p) {
				k.more.rare = keepRare(p, enc, at)
			}
		}
		dst = append(dst, k)
	}
	return dst
}

func keepRare(p *Part, enc []byte, at int) *keptRare {
	k := &keptRare{part: clonePart(p, false)}
	if extra := p.Extra(); len(extra) > 0 {
		k.extra = make(map[string]keptSpan, len(extra))
		for key, v := range extra {
			k.extra[key] = keepSpan(v, enc, at)
		}
	}
	return k
}

// same compares a kept rare part with p.
func (k *keptRare) same(p *Part, body *bodyCursor) bool {
	extra := p.Extra()
	if !samePart(k.part, p, false) || len(extra) != len(k.extra) {
		return false
	}
	for key, s := range k.extra {
		if v, ok := extra[key]; !ok || !s.same(v, body) {
			return false
		}
	}
	return true
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
		m.isError != p.IsError || !m.input.same(p.Input, body) {
		return false
	}
	if m.rare == nil {
		return !hasRare(p)
	}
	return m.rare.same(p, body)
}

// hasRare reports whether p sets a rare field (one of PartRare's), which
// a kept part holds only in a keptRare.
func hasRare(p *Part) bool { return p.PartRare != nil && !p.PartRare.empty() }

// samePart compares two parts field by field, Extra only when extra is
// true. Extra is ranged over only when it holds something: ranging over
// even an empty map costs more than all the other fields.
func samePart(a, b *Part, extra bool) bool {
	if !sameString(string(a.Type), string(b.Type)) || !sameString(a.Text, b.Text) ||
		!sameString(a.ToolCallID, b.ToolCallID) || !sameString(a.ToolName, b.ToolName) ||
		!bytes.Equal(a.Input, b.Input) || a.IsError != b.IsError {
		return false
	}
	x, y := a.rare(), b.rare()
	if !sameString(x.MediaType, y.MediaType) || !sameString(x.Data, y.Data) ||
		!sameString(x.Signature, y.Signature) || !sameString(x.Redacted, y.Redacted) || !sameString(x.Origin, y.Origin) ||
		len(x.Images) != len(y.Images) ||
		extra && (len(x.Extra) != len(y.Extra) || len(x.Extra) > 0 && !maps.EqualFunc(x.Extra, y.Extra, sameRaw)) {
		return false
	}
	for i := range x.Images {
		if !samePart(&x.Images[i], &y.Images[i], true) {
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
// leaves the copy as it was; its Extra only when extra is true.
func clonePart(p *Part, extra bool) *Part {
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
			r.Images[i] = *clonePart(&p.PartRare.Images[i], true)
		}
	}
	r.Extra = nil
	if extra && p.PartRare.Extra != nil {
		r.Extra = make(map[string]json.RawMessage, len(p.PartRare.Extra))
		for k, v := range p.PartRare.Extra {
			r.Extra[k] = bytes.Clone(v)
		}
	}
	return &c
}
