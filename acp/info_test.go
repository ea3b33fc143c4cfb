package acp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestMessageIDsAndSessionInfo: the chunks of one model response share a
// messageId, the next response gets another; after the turn a
// session_info_update carries the title and the time of last activity; a
// replay keeps the prompt's messageId. Every update matches the schema.
func TestMessageIDsAndSessionInfo(t *testing.T) {
	schema := acpStableSchema(t, "SessionUpdate")
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"let me ", "look"}, ToolCalls: []llmtest.ToolCall{{Name: "list_files", Args: `{"path":"."}`}}},
		llmtest.Reply{Text: []string{"all ", "done"}},
	)
	home := t.TempDir()
	ed := newEditor(t)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, true, true)
	dir := workspace(t, nil)
	sid := p.newSession(t, dir)
	before := time.Now().Add(-time.Second)
	if r, err := p.prompt(t, sid, "Tidy the README\nthen more"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", r, err)
	}
	var ids []string
	var info *agent.SessionInfo
	for _, r := range ed.sessionUpdates(sid) {
		var inst any
		json.Unmarshal([]byte(r.raw), &inst)
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s does not match the schema: %v", r.raw, err)
		}
		switch r.u.Type {
		case agent.AgentMessageChunk:
			if r.u.MessageID == "" {
				t.Errorf("chunk without messageId: %s", r.raw)
			}
			if len(ids) == 0 || ids[len(ids)-1] != r.u.MessageID {
				ids = append(ids, r.u.MessageID)
			}
		case agent.SessionInfoUpdated:
			info = r.u.Info
		}
	}
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Errorf("message ids %v, want two distinct ones (one per response)", ids)
	}
	if info == nil || info.Title != "Tidy the README" || info.UpdatedAt.Before(before) {
		t.Errorf("session_info_update: %+v", info)
	}
	p.closeAndWait(t)

	ed2 := newEditor(t)
	p2 := startTandem(t, srv, home, ed2)
	p2.initialize(t, true, true)
	if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	var userIDs, agentIDs []string
	for _, r := range ed2.sessionUpdates(sid) {
		switch r.u.Type {
		case agent.UserMessageChunk:
			userIDs = append(userIDs, r.u.MessageID)
		case agent.AgentMessageChunk:
			agentIDs = append(agentIDs, r.u.MessageID)
		}
	}
	if len(userIDs) != 1 || userIDs[0] == "" || strings.Join(agentIDs, ",") != strings.Join(ids, ",") {
		t.Errorf("replayed ids: user %v, agent %v (live %v)", userIDs, agentIDs, ids)
	}
}
