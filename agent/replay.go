package agent

import "strings"

// replayChunks joins the consecutive text chunks of one message that a load
// replays into one update, as the log held them before it logged a reply
// batch by batch (writeLogs): a long reply is then one notification again,
// not some two thousand, and older logs (one chunk a message) replay as
// they always did. Other updates pass through in order, after the joined
// chunk before them.
type replayChunks struct {
	send func(Update)
	open *Update // the chunk being joined, its text aside; nil: none
	text strings.Builder
}

// add replays u, holding a text chunk back until the message ends.
func (r *replayChunks) add(u Update) {
	if joinable(outItem{op: opSend, u: &u}) { // a chunk of a streamed reply or thought, as the outbox joins them
		if o := r.open; o != nil && o.Type == u.Type && o.MessageID == u.MessageID && conversation(*o) == conversation(u) {
			r.text.WriteString(u.Chunk.Text)
			return
		}
		r.flush()
		c := *u.Chunk
		u.Chunk = &c
		r.open = &u
		r.text.WriteString(c.Text)
		return
	}
	r.flush()
	r.send(u)
}

// flush replays the chunk being joined.
func (r *replayChunks) flush() {
	if r.open == nil {
		return
	}
	u := *r.open
	u.Chunk.Text = r.text.String()
	r.open = nil
	r.text.Reset()
	r.send(u)
}
