package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/internal/redact"
)

// A notice, a mode change and the reply's own thoughts coming between two
// chunks of a reply that carry a secret in halves do not cut it: neither
// half leaves, the reply reads with the secret masked, and the updates in
// between leave before the masked secret. A tool call starting ends the
// reply, and what it held leaves before the call.
func TestOutboxSecretSplitAroundOtherUpdates(t *testing.T) {
	const secret = "sk-outbox-SPLITsecretSPLIT-123"
	h := &slowHost{}
	o := startOutbox(h, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), redact.New(secret), 1<<20)
	defer o.stop()
	chunk := func(typ UpdateType, text string) outItem {
		return outItem{op: opSend, u: &Update{Type: typ, MessageID: "m1", Chunk: &ContentBlock{Type: "text", Text: text}}}
	}
	for _, it := range []outItem{
		chunk(AgentMessageChunk, "the key is "+secret[:14]),
		{op: opSend, u: &Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: "[notice]"}}},
		{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: "code"}},
		chunk(AgentThoughtChunk, "hmm"),
		chunk(AgentMessageChunk, secret[14:]+" ok s"),
		{op: opSend, u: &Update{Type: ToolCallStarted}},
	} {
		o.put(it)
	}
	o.drain()
	got := h.got()
	for _, half := range []string{secret[:14], secret[14:]} {
		if strings.Contains(got, half) {
			t.Errorf("half of the secret left: %q", got)
		}
	}
	want := "agent_message_chunk:the key is  agent_message_chunk:[notice] current_mode_update agent_thought_chunk:hmm " +
		"agent_message_chunk:[redacted] ok  agent_message_chunk:s tool_call"
	if got != want {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

// Subagents stream side by side: one's wait for the stream (a file read,
// drainIn) between two chunks of another's reply that carry a secret in
// halves does not cut it loose.
func TestOutboxDrainInKeepsOtherConversationsTail(t *testing.T) {
	const secret = "sk-outbox-SPLITsecretSPLIT-123"
	h := &slowHost{}
	o := startOutbox(h, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), redact.New(secret), 1<<20)
	defer o.stop()
	chunk := func(text string) outItem {
		return outItem{op: opSend, u: &Update{Type: AgentMessageChunk, MessageID: "m1", Nest: &Nesting{ParentCall: "t1"},
			Chunk: &ContentBlock{Type: "text", Text: text}}}
	}
	sibling := "t2"
	o.put(chunk("key " + secret[:14]))
	o.drainIn(&sibling)
	o.put(chunk(secret[14:] + " ok"))
	o.drain()
	if got := h.got(); strings.Contains(got, secret[:14]) || !strings.Contains(got, "[redacted] ok") {
		t.Errorf("sent %q", got)
	}
}

// logCheckHost reads the session log each time a chunk reaches it, and
// keeps what the log lacked then of the text sent before.
type logCheckHost struct {
	testHost
	st     *store.Store
	id     string
	sent   strings.Builder // the handler's goroutine's alone
	behind []string
}

func (h *logCheckHost) Send(u Update) {
	if u.Chunk == nil {
		return
	}
	_, recs, _, err := h.st.Read(h.id)
	var logged strings.Builder
	for _, r := range recs {
		var lu Update
		if err == nil {
			err = json.Unmarshal(r.Data, &lu)
		}
		if lu.Chunk != nil {
			logged.WriteString(lu.Chunk.Text)
		}
	}
	if err != nil || logged.String() != h.sent.String() {
		h.behind = append(h.behind, fmt.Sprintf("at %q the log held %d of %d bytes (%v)", u.Chunk.Text, logged.Len(), h.sent.Len(), err))
	}
	h.sent.WriteString(u.Chunk.Text)
}

// A reply still streaming is in the log file batch by batch, not only once
// it ends: when a batch of chunks reaches the host, every batch before it
// is written (write(2), no fsync), so a kill -9 of tandem mid-reply loses
// at most the batch it interrupted. Each Send here is its own batch (the
// chunks are of one message and joined far under maxCoalesced).
func TestOutboxLogsStreamBeforeNextBatch(t *testing.T) {
	st, id, l := newTestLog(t)
	h := &logCheckHost{st: st, id: id}
	o := startOutbox(h, l, discard(), nil, 1<<20)
	for i := range 300 {
		o.putChunk(chunk(AgentMessageChunk, "m1", fmt.Sprintf("w%d ", i)))
	}
	o.stop()
	if len(h.behind) > 0 {
		t.Fatalf("the log lagged the wire by more than the batch in flight:\n%s", strings.Join(h.behind, "\n"))
	}
	if !strings.HasPrefix(h.sent.String(), "w0 w1 ") || !strings.HasSuffix(h.sent.String(), "w299 ") {
		t.Fatalf("sent %.40q…, want the whole reply", h.sent.String())
	}
}
