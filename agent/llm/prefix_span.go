package llm

import "bytes"

// keptSpan is bytes of a part that a caller could rewrite in place (a
// tool input, a replayed extra): where they lie verbatim in the body when
// the encoding holds them so, or else a copy. Either tells bytes rewritten
// in place, but a copy holds them a second time besides their encoding,
// and a call's input can be a whole file, a replayed reasoning as long as
// the answer.
type keptSpan struct {
	at, n int
	copy  []byte // nil when the body holds the bytes at at
}

// keepSpan keeps b, which the message encoded as enc (starting at offset
// at of the body) carried.
func keepSpan(b, enc []byte, at int) keptSpan {
	if len(b) == 0 {
		return keptSpan{}
	}
	if j := bytes.Index(enc, b); j >= 0 {
		return keptSpan{at: at + j, n: len(b)}
	}
	return keptSpan{n: len(b), copy: bytes.Clone(b)}
}

// same reports whether b is what s kept.
func (s *keptSpan) same(b []byte, body *bodyCursor) bool {
	if len(b) != s.n {
		return false
	}
	if s.copy != nil {
		return bytes.Equal(s.copy, b)
	}
	return s.n == 0 || body.equal(s.at, b)
}

// bodyCursor reads an entry's body, in segments, at offsets that mostly
// increase from one call to the next (the kept spans, in message order):
// each read starts from where the last one was, or from the start when the
// offset went back.
type bodyCursor struct {
	segs  [][]byte
	i     int // the segment at or before the last offset read
	start int // where segs[i] starts
}

// equal reports whether the body holds b at offset at.
func (c *bodyCursor) equal(at int, b []byte) bool {
	if at < c.start {
		c.i, c.start = 0, 0
	}
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
