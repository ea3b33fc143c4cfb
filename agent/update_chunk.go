package agent

import (
	"unicode/utf8"
)

// textChunkJSON writes a plain text chunk of a message or thought without
// reflection, and reports false for any other update, which marshalWire
// writes. Every streamed chunk is encoded twice, for the wire and for the
// log, so this is the stream's hot path; its bytes are marshalWire's
// (TestTextChunkJSONMatchesWire): the fields in wireUpdate's order, the
// strings escaped as encoding/json escapes them (appendJSONString).
func textChunkJSON(u Update) ([]byte, bool) {
	c := u.Chunk
	if c == nil || c.Text == "" || *c != (ContentBlock{Type: "text", Text: c.Text}) || u.Nest != nil || u.Term != nil {
		return nil, false
	}
	switch u.Type {
	case UserMessageChunk, AgentMessageChunk, AgentThoughtChunk:
	default:
		return nil, false
	}
	b := make([]byte, 0, len(c.Text)+len(u.Type)+len(u.MessageID)+80)
	b = append(b, `{"sessionUpdate":"`...)
	b = append(b, u.Type...) // one of the constants above: nothing to escape
	b = append(b, `","content":{"type":"text","text":`...)
	b = appendJSONString(b, c.Text)
	b = append(b, '}')
	if u.MessageID != "" {
		b = append(b, `,"messageId":`...)
		b = appendJSONString(b, u.MessageID)
	}
	return append(b, '}'), true
}

// appendJSONString appends s quoted as encoding/json quotes a string by
// default: HTML's <, > and & escaped, invalid UTF-8 as U+FFFD, U+2028 and
// U+2029 escaped. encoding/json has no exported way to append a string
// (json.Marshal allocates twice for each), and the stream writes two a
// chunk.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
