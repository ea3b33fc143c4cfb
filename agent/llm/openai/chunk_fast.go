package openai

import (
	"encoding/json"
	"unicode/utf8"
)

// fastChunk decodes the chunk almost every event of a stream is, a text or
// reasoning delta, without encoding/json's reflection, which is most of
// the CPU a streamed token costs. It decodes into c only what
// json.Unmarshal would, and reports false at anything it does not handle
// the same way for sure (a usage or error object, tool calls, escapes it
// does not take, keys differing from the fields only by case, duplicate
// fields, invalid JSON): the caller then decodes the chunk with
// json.Unmarshal as before, errors included.
func fastChunk(data []byte, c *wireChunk) bool {
	d := decoder{b: data}
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "choices":
			return d.once(0) && d.choices(c)
		case "usage":
			return d.once(1) && d.null()
		case "error":
			return d.once(2) && d.null()
		}
		return d.other(key, "choices", "usage", "error")
	})
	d.ws()
	return ok && d.i == len(d.b)
}

// decoder reads one JSON text; every method reports false where the fast
// path gives up.
type decoder struct {
	b     []byte
	i     int
	depth int
	seen  uint32 // fields of the current object already read (once)
}

// maxDepth bounds the nesting of values skipped; deeper goes the slow way.
const maxDepth = 32

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// byte consumes c after any white space.
func (d *decoder) byte(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// peek is the next byte after white space, 0 at the end.
func (d *decoder) peek() byte {
	d.ws()
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// once marks field bit of the current object read, false the second time:
// encoding/json would merge a repeated field, which is not worth copying.
func (d *decoder) once(bit uint) bool {
	if d.seen&(1<<bit) != 0 {
		return false
	}
	d.seen |= 1 << bit
	return true
}

// object reads an object, calling field with each key once the decoder
// stands before its value; field reads the value.
func (d *decoder) object(field func(key []byte) bool) bool {
	if !d.byte('{') {
		return false
	}
	saved := d.seen
	defer func() { d.seen = saved }()
	d.seen = 0
	if d.byte('}') {
		return true
	}
	for {
		key, ok := d.rawString()
		if !ok || !d.byte(':') || !field(key) {
			return false
		}
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// other skips the value of a key the struct has no field for, unless
// encoding/json would take it for one of fields (it matches keys without
// regard to case, Unicode folding included).
func (d *decoder) other(key []byte, fields ...string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for _, f := range fields {
		if len(f) == len(key) && asciiEqualFold(f, key) {
			return false
		}
	}
	return d.skip()
}

func asciiEqualFold(a string, b []byte) bool {
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func (d *decoder) choices(c *wireChunk) bool {
	if d.null() {
		c.Choices = nil
		return true
	}
	if !d.byte('[') {
		return false
	}
	if d.byte(']') {
		c.Choices = c.Choices[:0]
		return true
	}
	for {
		c.Choices = append(c.Choices, wireChoice{})
		if !d.choice(&c.Choices[len(c.Choices)-1]) {
			return false
		}
		if d.byte(']') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

func (d *decoder) choice(ch *wireChoice) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "index":
			return d.once(0) && d.int(&ch.Index)
		case "delta":
			return d.once(1) && (d.null() || d.delta(&ch.Delta))
		case "finish_reason":
			return d.once(2) && d.string(&ch.FinishReason)
		}
		return d.other(key, "index", "delta", "finish_reason")
	})
}

func (d *decoder) delta(dl *wireDelta) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "content":
			return d.once(0) && d.string(&dl.Content)
		case "reasoning_content":
			return d.once(1) && d.string(&dl.ReasoningContent)
		case "reasoning":
			return d.once(2) && d.string(&dl.Reasoning)
		case "tool_calls":
			return d.once(3) && d.null()
		}
		return d.other(key, "content", "reasoning_content", "reasoning", "tool_calls")
	})
}

// null consumes a null.
func (d *decoder) null() bool {
	d.ws()
	if len(d.b)-d.i >= 4 && string(d.b[d.i:d.i+4]) == "null" {
		d.i += 4
		return true
	}
	return false
}

// string reads a string or null (which leaves *s as it is, as
// encoding/json does).
func (d *decoder) string(s *string) bool {
	if d.null() {
		return true
	}
	raw, ok := d.rawString()
	if !ok {
		return false
	}
	*s = string(raw)
	return true
}

// int reads a small non-negative integer written plainly.
func (d *decoder) int(n *int) bool {
	d.ws()
	start, v := d.i, 0
	for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' && d.i-start < 9 {
		v = v*10 + int(d.b[d.i]-'0')
		d.i++
	}
	if d.i == start || d.b[start] == '0' && d.i-start > 1 {
		return false
	}
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return false
		}
	}
	*n = v
	return true
}

// rawString reads a string holding no escape and no control character,
// in valid UTF-8, and returns its bytes, which are then its value.
func (d *decoder) rawString() ([]byte, bool) {
	if !d.byte('"') {
		return nil, false
	}
	start, ascii := d.i, true
	for ; d.i < len(d.b); d.i++ {
		switch c := d.b[d.i]; {
		case c == '"':
			s := d.b[start:d.i]
			d.i++
			return s, ascii || utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// skip consumes any one value, checking it is valid JSON.
func (d *decoder) skip() bool {
	switch c := d.peek(); {
	case c == '"':
		return d.skipString()
	case c == '{':
		if d.depth++; d.depth > maxDepth {
			return false
		}
		defer func() { d.depth-- }()
		return d.object(func([]byte) bool { return d.skip() })
	case c == '[':
		if d.depth++; d.depth > maxDepth {
			return false
		}
		defer func() { d.depth-- }()
		d.i++
		if d.byte(']') {
			return true
		}
		for {
			if !d.skip() {
				return false
			}
			if d.byte(']') {
				return true
			}
			if !d.byte(',') {
				return false
			}
		}
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.null()
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	}
	return false
}

func (d *decoder) literal(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// skipString consumes a string, escapes included, leaving their checking
// to encoding/json (a string token is small).
func (d *decoder) skipString() bool {
	start := d.i
	d.i++ // the opening quote
	escaped := false
	for ; d.i < len(d.b); d.i++ {
		switch c := d.b[d.i]; {
		case c == '\\':
			escaped = true
			d.i++
		case c == '"':
			d.i++
			return !escaped || json.Valid(d.b[start:d.i])
		case c < 0x20:
			return false
		}
	}
	return false
}

// number consumes a number as JSON's grammar has it.
func (d *decoder) number() bool {
	digits := func() int {
		n := 0
		for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	if d.i < len(d.b) && d.b[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return false
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}
