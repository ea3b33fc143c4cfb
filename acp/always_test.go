package acp

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestLaterRejectAlwaysWins: two sessions of one workspace are asked about
// the same command at once; one answers "Always allow", the other, later,
// "Always reject". Both answers are saved for the project, and deny comes
// first: from then on the command is refused in both sessions and in a new
// one, without asking, whichever answer came last. The /permissions
// listing says where each remembered answer applies.
func TestLaterRejectAlwaysWins(t *testing.T) {
	for _, tt := range []struct {
		name        string
		allowFirst  bool
		allowerTold string // what the session that allowed is told, if anything
	}{
		{name: "reject after allow", allowFirst: true},
		{name: "allow after reject", allowFirst: false, allowerTold: "denies it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			testLaterReject(t, tt.allowFirst, tt.allowerTold)
		})
	}
}

func testLaterReject(t *testing.T, allowFirst bool, allowerTold string) {
	srv := llmtest.NewServer(t)
	home, dir := t.TempDir(), workspace(t, nil)
	ed := newEditor(t)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, false, false)
	allower, rejecter := p.newSession(t, dir), p.newSession(t, dir)

	// Each session's answer waits for its turn: both questions are open
	// at once, then the first answers, then the second.
	asked := map[sdk.SessionId]chan struct{}{allower: make(chan struct{}), rejecter: make(chan struct{})}
	answer := map[sdk.SessionId]chan struct{}{allower: make(chan struct{}), rejecter: make(chan struct{})}
	var once sync.Map
	ed.answer = func(r sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if _, dup := once.LoadOrStore(r.SessionId, true); !dup {
			close(asked[r.SessionId])
			<-answer[r.SessionId]
		}
		if r.SessionId == allower {
			return sdk.NewRequestPermissionOutcomeSelected("allow_always")
		}
		return sdk.NewRequestPermissionOutcomeSelected("reject_always")
	}
	srv.Enqueue(runCall("a1", "echo ok"))
	doneA := make(chan error, 1)
	go func() { _, err := p.prompt(t, allower, "run it"); doneA <- err }()
	<-asked[allower]
	srv.Enqueue(runCall("r1", "echo ok"))
	doneR := make(chan error, 1)
	go func() { _, err := p.prompt(t, rejecter, "run it"); doneR <- err }()
	<-asked[rejecter]
	first, second, firstDone, secondDone := allower, rejecter, doneA, doneR
	if !allowFirst {
		first, second, firstDone, secondDone = rejecter, allower, doneR, doneA
	}
	srv.Enqueue(llmtest.Reply{Text: []string{"first done"}})
	close(answer[first])
	if err := <-firstDone; err != nil {
		t.Fatalf("the first session's prompt: %v", err)
	}
	srv.Enqueue(llmtest.Reply{Text: []string{"second done"}})
	close(answer[second])
	if err := <-secondDone; err != nil {
		t.Fatalf("the second session's prompt: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".tandem", "settings.local.json"))
	if !strings.Contains(string(b), `"deny": [`) {
		t.Fatalf("settings.local.json has no deny rule:\n%s", b)
	}
	if allowFirst && strings.Contains(string(b), `"allow"`) {
		t.Errorf("the later reject left the allow it replaces in settings.local.json:\n%s", b)
	}
	if allowerTold != "" && !strings.Contains(ed.agentText(allower), allowerTold) {
		t.Errorf("the session that allowed last was not told the deny wins:\n%s", ed.agentText(allower))
	}

	// From now on nothing asks and everything is refused, in both
	// sessions and a new one.
	before := len(ed.askedTitles())
	third := p.newSession(t, dir)
	for i, sid := range []sdk.SessionId{allower, rejecter, third} {
		id := []string{"a2", "r2", "n1"}[i]
		srv.Enqueue(runCall(id, "echo ok again"), llmtest.Reply{Text: []string{"done"}})
		promptOK(t, p, sid, "again")
		if r := resultOf(t, srv, id); !r.IsError || !strings.Contains(r.Text, "denies") {
			t.Errorf("%s: echo ok again gave %q, want the deny rule's refusal", id, r.Text)
		}
	}
	if got := ed.askedTitles()[before:]; len(got) != 0 {
		t.Errorf("asked %q after both answers, want nothing", got)
	}

	// /permissions says where each remembered answer applies.
	mark := len(ed.agentText(third))
	promptOK(t, p, third, "/permissions")
	listing := ed.agentText(third)[mark:]
	for _, want := range []string{"run_command(echo ok:*) — .tandem/settings.local.json", "this project"} {
		if !strings.Contains(listing, want) {
			t.Errorf("/permissions does not say %q:\n%s", want, listing)
		}
	}
}
