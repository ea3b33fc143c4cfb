package acp

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/fileuri"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestNextEditSuggestionsOverACP drives `tandem acp` as a client that
// declared the nes capability: initialize advertises nes with the
// document events; document/didOpen and a rename typed as incremental
// document/didChange feed nes/suggest, which answers the matching change
// in the test file as an edit suggestion; a reply that does not apply
// answers none; accept and reject are taken; nes/close cancels a suggest
// the model has not answered. Every message tandem writes is checked
// against schema.unstable.json. A client without the capability is not
// offered nes.
func TestNextEditSuggestionsOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	src := "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	test := "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
	ws := workspace(t, map[string]string{"calc.go": src, "calc_test.go": test})
	peer := startNesPeer(t, srv)

	var init struct {
		AgentCapabilities map[string]any `json:"agentCapabilities"`
	}
	answered(t, peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"nes": map[string]any{}}}, &init))
	nes, _ := init.AgentCapabilities["nes"].(map[string]any)
	if nes == nil || !strings.Contains(fmtJSON(nes), `"didChange":{"syncKind":"incremental"}`) {
		t.Fatalf("agentCapabilities.nes: %v", init.AgentCapabilities)
	}
	var started struct {
		SessionID string `json:"sessionId"`
	}
	answered(t, peer.Call("nes/start", map[string]any{"workspaceUri": fileuri.FromPath(ws)}, &started))
	sid := started.SessionID
	uri := fileuri.FromPath(filepath.Join(ws, "calc.go"))
	testURI := fileuri.FromPath(filepath.Join(ws, "calc_test.go"))
	answered(t, peer.Notify("document/didOpen", map[string]any{"sessionId": sid, "uri": uri, "languageId": "go", "version": 1, "text": src}))
	pos := func(l, c int) map[string]int { return map[string]int{"line": l, "character": c} }
	change := func(v int, from, to map[string]int, text string) {
		answered(t, peer.Notify("document/didChange", map[string]any{"sessionId": sid, "uri": uri, "version": v,
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": from, "end": to}, "text": text}}}))
	}
	change(2, pos(2, 5), pos(2, 8), "")
	for i, c := range "Sum" {
		change(3+i, pos(2, 5+i), pos(2, 5+i), string(c))
	}
	srv.Enqueue(
		llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tif Add(1, 2) != 3 {\n=======\n\tif Sum(1, 2) != 3 {\n>>>>>>> REPLACE\n"}},
		llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tif Add(2, 2) != 4 {\n=======\n\tif Sum(2, 2) != 4 {\n>>>>>>> REPLACE\n"}},
	)
	suggest := map[string]any{"sessionId": sid, "uri": uri, "version": 5, "position": pos(2, 8), "triggerKind": "automatic"}
	var res struct {
		Suggestions []struct {
			Kind  string `json:"kind"`
			ID    string `json:"id"`
			URI   string `json:"uri"`
			Edits []struct {
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
					End   struct{ Line, Character int } `json:"end"`
				} `json:"range"`
				NewText string `json:"newText"`
			} `json:"edits"`
		} `json:"suggestions"`
	}
	answered(t, peer.Call("nes/suggest", suggest, &res))
	if len(res.Suggestions) != 1 || res.Suggestions[0].Kind != "edit" || res.Suggestions[0].URI != testURI || len(res.Suggestions[0].Edits) != 1 {
		t.Fatalf("suggestions: %+v", res.Suggestions)
	}
	if e := res.Suggestions[0].Edits[0]; e.Range.Start.Line != 5 || e.Range.Start.Character != 4 || e.Range.End.Character != 7 || e.NewText != "Sum" {
		t.Errorf("edit: %+v", e)
	}
	if prompt := srv.Requests()[0].LastUserText(); !strings.Contains(prompt, "-func Add(a, b int) int {\n+func Sum(a, b int) int {\n") {
		t.Errorf("the prompt lacks the rename:\n%s", prompt)
	}
	answered(t, peer.Notify("nes/accept", map[string]any{"sessionId": sid, "id": res.Suggestions[0].ID}))
	res.Suggestions = nil
	answered(t, peer.Call("nes/suggest", suggest, &res))
	if len(res.Suggestions) != 0 {
		t.Errorf("a reply that does not apply: %+v", res.Suggestions)
	}
	answered(t, peer.Notify("nes/reject", map[string]any{"sessionId": sid, "id": "nes-1-9", "reason": "rejected"}))
	if err := peer.Call("nes/suggest", map[string]any{"sessionId": sid, "uri": testURI, "version": 1, "position": pos(0, 0), "triggerKind": "manual"}, nil); err == nil {
		t.Error("nes/suggest for a document that was never opened was answered")
	}

	asked := make(chan struct{})
	srv.Handle(func(*llmtest.Request) llmtest.Reply {
		close(asked)
		return llmtest.Reply{Hang: true}
	})
	done := make(chan error, 1)
	go func() { done <- peer.Call("nes/suggest", suggest, nil) }()
	<-asked
	answered(t, peer.Call("nes/close", map[string]any{"sessionId": sid}, nil))
	select {
	case err := <-done:
		var re *testenv.RPCError
		if !errors.As(err, &re) || re.Code != -32800 {
			t.Errorf("the suggest running at nes/close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nes/close did not end the suggest in flight")
	}
	if err := peer.Call("nes/suggest", suggest, nil); err == nil {
		t.Error("a closed NES session still suggests")
	}

	plain := startNesPeer(t, srv)
	init.AgentCapabilities = nil
	answered(t, plain.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"plan": map[string]any{}}}, &init))
	if _, ok := init.AgentCapabilities["nes"]; ok {
		t.Errorf("a client without the nes capability is offered nes: %v", init.AgentCapabilities)
	}
}

// startNesPeer runs tandem acp with the fake model, every line it writes
// checked against the schema.
func startNesPeer(t *testing.T, srv *llmtest.Server) *testenv.Peer {
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = testenv.ModelEnv(t.TempDir(), srv.BaseURL(llmtest.Anthropic))
	stderr := &testenv.SyncBuffer{}
	stdin, stdout := testenv.Start(t, cmd, stderr)
	tap := newRequestTap(stdin)
	var lines atomic.Int32
	check := loadWireSchema(t).async(t, tap)
	peer := testenv.NewPeer(t, &wireTap{r: stdout, check: func(l []byte) { lines.Add(1); check(l) }}, tap, testenv.Lines, nil)
	t.Cleanup(func() {
		peer.Close()
		if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
			t.Errorf("tandem acp: %v", err)
		}
		if lines.Load() == 0 {
			t.Error("tandem wrote nothing")
		}
		if t.Failed() {
			t.Logf("tandem stderr:\n%s", stderr.String())
		}
	})
	return peer
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
