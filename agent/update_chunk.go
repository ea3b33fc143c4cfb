package agent

import "encoding/json"

// textChunkJSON writes a plain text chunk of a message or thought without
// reflection, and reports false for any other update, which marshalWire
// writes. Every streamed chunk is encoded twice, for the wire and for the
// log, so this is the stream's hot path; its bytes are marshalWire's
// (TestTextChunkJSONMatchesWire): the fields in wireUpdate's order, the
// strings escaped by encoding/json itself.
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
	text, err := json.Marshal(c.Text)
	if err != nil {
		return nil, false // a string always encodes; marshalWire says why if not
	}
	b := make([]byte, 0, len(text)+len(u.Type)+len(u.MessageID)+80)
	b = append(b, `{"sessionUpdate":"`...)
	b = append(b, u.Type...) // one of the constants above: nothing to escape
	b = append(b, `","content":{"type":"text","text":`...)
	b = append(b, text...)
	b = append(b, '}')
	if u.MessageID != "" {
		id, err := json.Marshal(u.MessageID)
		if err != nil {
			return nil, false
		}
		b = append(b, `,"messageId":`...)
		b = append(b, id...)
	}
	return append(b, '}'), true
}
