package agent

import (
	"strings"
	"testing"
)

// A reply logged batch by batch replays as one chunk a message, in its
// place among the other updates; chunks of another message, kind or
// conversation, and chunks without an id, stay apart.
func TestReplayChunksJoinsAMessage(t *testing.T) {
	var got []string
	r := replayChunks{send: func(u Update) {
		s := string(u.Type)
		if u.Chunk != nil {
			s += ":" + u.Chunk.Text
		}
		got = append(got, s)
	}}
	msg := func(typ UpdateType, id, text string) Update {
		return Update{Type: typ, MessageID: id, Chunk: &ContentBlock{Type: "text", Text: text}}
	}
	nested := msg(AgentMessageChunk, "m1", "sub")
	nested.Nest = &Nesting{ParentCall: "t1"}
	for _, u := range []Update{
		msg(UserMessageChunk, "u1", "hi"),
		msg(AgentMessageChunk, "m1", "let "),
		msg(AgentMessageChunk, "m1", "me "),
		msg(AgentMessageChunk, "m1", "see"),
		{Type: ToolCallStarted, Tool: &ToolCall{ID: "c1"}},
		msg(AgentThoughtChunk, "m2", "hm"),
		msg(AgentThoughtChunk, "m2", "m"),
		msg(AgentMessageChunk, "m2", "ok"),
		nested,
		msg(AgentMessageChunk, "m2", "!"),
		msg(AgentMessageChunk, "", "[a]"),
		msg(AgentMessageChunk, "", "[b]"),
	} {
		r.add(u)
	}
	r.flush()
	want := "user_message_chunk:hi agent_message_chunk:let me see tool_call agent_thought_chunk:hmm agent_message_chunk:ok " +
		"agent_message_chunk:sub agent_message_chunk:! agent_message_chunk:[a] agent_message_chunk:[b]"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("replayed %q\nwant     %q", s, want)
	}
}
