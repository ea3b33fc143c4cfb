package acp

import (
	"os/exec"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestStreamedSecretSplitInTwo: the fake model streams a token from
// tandem's environment in two deltas, split in the middle; neither half
// reaches the editor, which reads the reply with the token masked, and
// the text around it streams as usual.
func TestStreamedSecretSplitInTwo(t *testing.T) {
	const token = "ghp_streamSPLITsecretSPLITsecret0123"
	srv := llmtest.NewServer(t)
	home := t.TempDir()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic)), "GITHUB_TOKEN="+token)
	ed := newEditor(t)
	p := startCmd(t, cmd, srv, home, ed)
	p.initialize(t, false, false)
	sid := p.newSession(t, t.TempDir())

	srv.Enqueue(llmtest.Reply{Text: []string{"the token is ", token[:15], token[15:] + " and", " that is all"}})
	if r, err := p.prompt(t, sid, "what is the token?"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("the turn: %q, %v", r, err)
	}
	if got, want := ed.agentText(sid), "the token is [redacted] and that is all"; got != want {
		t.Errorf("the editor read %q, want %q", got, want)
	}
	for _, u := range ed.sessionUpdates(sid) {
		if strings.Contains(u.raw, token[:15]) || strings.Contains(u.raw, token[15:]) {
			t.Errorf("half of the token reached the editor: %s", u.raw)
		}
	}
}
