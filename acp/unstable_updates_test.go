package acp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestUnstableUpdatesOnlyToClientsThatOptIn drives `tandem acp` through
// a turn that compacts (a window the system prompt alone overfills) and
// calls a tool, for three clients: one of the stable schema, one that
// advertises session.compaction and one of the unstable schema without
// it. Only the second gets compaction_update (in_progress, then completed
// with what it did and the summary); the others see the compaction as
// the tool call tandem always showed. Only clients of the unstable schema
// get a tool call's name. A session the compaction client made, loaded by
// a stable client in a new process, replays in the stable shapes. Every
// message is checked against the schema the client speaks.
func TestUnstableUpdatesOnlyToClientsThatOptIn(t *testing.T) {
	fs := map[string]bool{"readTextFile": false, "writeTextFile": false}
	stable := map[string]any{"fs": fs, "terminal": false}
	compaction := map[string]any{"fs": fs, "terminal": false, "session": map[string]any{"compaction": map[string]any{}}}
	planOnly := map[string]any{"fs": fs, "terminal": false, "plan": map[string]any{}}

	srv := llmtest.NewServer(t)
	summaryHangs := make(chan struct{}, 1)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		last := r.Messages[len(r.Messages)-1]
		switch {
		case r.System == compact.SummarySystem && strings.Contains(r.LastUserText(), "HANG"):
			summaryHangs <- struct{}{}
			return llmtest.Reply{Hang: true}
		case r.System == compact.SummarySystem:
			return llmtest.Reply{Text: []string{"## Goal and constraints\nRead the notes."}}
		case last.Content[0].Type == llm.PartToolResult:
			return llmtest.Reply{Text: []string{"read it"}}
		}
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("c%d", r.N), Name: "read_file", Args: `{"path":"notes.txt"}`}}}
	})
	url := srv.BaseURL(llmtest.Anthropic)
	ws := workspace(t, map[string]string{"notes.txt": "remember the milk\n"})

	type seen struct{ compactionUpdates, compactionCalls, named, unnamed int }
	tally := func(updates []map[string]any) (s seen) {
		for _, u := range updates {
			switch u["sessionUpdate"] {
			case "compaction_update":
				s.compactionUpdates++
			case "tool_call", "tool_call_update":
				if u["title"] == "Compacting conversation…" {
					s.compactionCalls++
				}
				if strings.HasPrefix(fmt.Sprint(u["toolCallId"]), "compact-") {
					continue
				}
				if u["sessionUpdate"] == "tool_call" {
					if u["name"] == "read_file" {
						s.named++
					} else {
						s.unnamed++
					}
				} else if _, ok := u["name"]; ok {
					s.named++
				}
			}
		}
		return s
	}
	run := func(caps map[string]any, home string) (string, []map[string]any) {
		peer, client, stop := switchTandem(t, home, url, caps)
		defer stop()
		var created struct {
			SessionID string `json:"sessionId"`
		}
		answered(t, peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &created))
		client.take()
		peerPrompt(t, peer, created.SessionID, "what do the notes say?")
		peerPrompt(t, peer, created.SessionID, "/compact")
		u, _ := client.take()
		return created.SessionID, u
	}

	if _, u := run(stable, t.TempDir()); !(tally(u).compactionUpdates == 0 && tally(u).compactionCalls > 0 && tally(u).named == 0) {
		t.Errorf("stable client saw %+v, want the compaction as a tool call and no names:\n%v", tally(u), u)
	}
	if _, u := run(planOnly, t.TempDir()); !(tally(u).compactionUpdates == 0 && tally(u).compactionCalls > 0 && tally(u).named > 0 && tally(u).unnamed == 0) {
		t.Errorf("unstable client without compaction saw %+v, want a tool call compaction and the name:\n%v", tally(u), u)
	}
	home := t.TempDir()
	sid, u := run(compaction, home)
	if !(tally(u).compactionUpdates > 0 && tally(u).compactionCalls == 0 && tally(u).named > 0 && tally(u).unnamed == 0) {
		t.Errorf("compaction client saw %+v, want compaction_updates and the name:\n%v", tally(u), u)
	}
	// Each compaction starts in_progress and ends once; /compact writes
	// a summary, which the completed update carries after what it did.
	statuses := map[string][]string{}
	summarized := false
	for _, x := range u {
		if x["sessionUpdate"] != "compaction_update" {
			continue
		}
		id := fmt.Sprint(x["compactionId"])
		statuses[id] = append(statuses[id], fmt.Sprint(x["status"]))
		summary := fmt.Sprint(x["summary"])
		summarized = summarized || x["status"] == "completed" && strings.Contains(summary, "Compacted the conversation") && strings.Contains(summary, "Read the notes.")
	}
	for id, st := range statuses {
		if len(st) != 2 || !slices.Contains(st, "in_progress") || !(slices.Contains(st, "completed") || slices.Contains(st, "failed")) {
			t.Errorf("compaction %s went through %v", id, st)
		}
	}
	if !summarized {
		t.Errorf("no completed compaction_update carried /compact's summary: %v", u)
	}

	// A compaction the user cancels ends cancelled, with no error (the
	// schema allows one only on failed).
	{
		peer, client, stop := switchTandem(t, t.TempDir(), url, compaction)
		var created struct {
			SessionID string `json:"sessionId"`
		}
		answered(t, peer.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &created))
		peerPrompt(t, peer, created.SessionID, "what do the notes say?")
		client.take()
		answer := make(chan map[string]any, 1)
		go func() {
			var r map[string]any
			peer.Call("session/prompt", map[string]any{"sessionId": created.SessionID,
				"prompt": []any{map[string]any{"type": "text", "text": "/compact HANG"}}}, &r)
			answer <- r
		}()
		<-summaryHangs
		answered(t, peer.Notify("session/cancel", map[string]any{"sessionId": created.SessionID}))
		if r := <-answer; r["stopReason"] != "cancelled" {
			t.Errorf("cancelled /compact answered %v", r)
		}
		u, _ := client.take()
		var ends []map[string]any
		for _, x := range u {
			if x["sessionUpdate"] == "compaction_update" && x["status"] != "in_progress" {
				ends = append(ends, x)
			}
		}
		if len(ends) != 1 || ends[0]["status"] != "cancelled" || ends[0]["error"] != nil {
			t.Errorf("cancelled compaction ended %v", ends)
		}
		stop()
	}

	// The log keeps the compaction_update and the name; a stable client
	// loading the session in a new process gets neither.
	peer, client, _ := switchTandem(t, home, url, stable)
	answered(t, peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	if replay, _ := client.take(); !(tally(replay).compactionUpdates == 0 && tally(replay).compactionCalls > 0 && tally(replay).named == 0) {
		t.Errorf("stable replay saw %+v:\n%v", tally(replay), replay)
	}
}
