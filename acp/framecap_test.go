package acp

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestSmallFrameCap runs the real binary with TANDEM_MAX_FRAME_BYTES at
// its 64 KiB floor: a read of a 120 KB file reaches the model cut to an
// eighth of a frame with a note saying how to read the rest, no update the
// editor gets comes near the cap, and the session answers the next prompt.
func TestSmallFrameCap(t *testing.T) {
	const frame = 64 << 10
	var big strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&big, "line %04d %s\n", i, strings.Repeat("z", 50))
	}
	ws := workspace(t, map[string]string{"big.txt": big.String()})
	srv := llmtest.NewServer(t)
	home := t.TempDir()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic)), fmt.Sprintf("TANDEM_MAX_FRAME_BYTES=%d", frame))
	ed := newEditor(t)
	p := startCmd(t, cmd, srv, home, ed)
	p.initialize(t, false, false)
	sid := p.newSession(t, ws)

	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_file", Args: `{"path": "big.txt"}`}}},
		llmtest.Reply{Text: []string{"read it"}})
	if r, err := p.prompt(t, sid, "read big.txt"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("the turn: %q, %v", r, err)
	}
	got := resultOf(t, srv, "r1").Text
	if len(got) > frame/8 || !strings.Contains(got, "[tandem cut ") || !strings.Contains(got, "read_file with offset and limit") ||
		!strings.Contains(got, "line 0000") || !strings.Contains(got, "line 1999") {
		t.Errorf("the model read %d bytes: %s", len(got), clipForLog(got))
	}
	for _, u := range ed.sessionUpdates(sid) {
		if len(u.raw) > frame/2 {
			t.Errorf("a %s update of %d bytes went to the editor", u.kind, len(u.raw))
		}
	}

	srv.Enqueue(llmtest.Reply{Text: []string{"still here"}})
	if r, err := p.prompt(t, sid, "are you there?"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("the session did not go on: %q, %v", r, err)
	}
}

// TestFrameCapOutOfBounds: a cap under the floor stops tandem acp at
// start with a message naming the variable and the bounds.
func TestFrameCapOutOfBounds(t *testing.T) {
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(testenv.ModelEnv(t.TempDir(), "http://127.0.0.1:1"), "TANDEM_MAX_FRAME_BYTES=1000")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "TANDEM_MAX_FRAME_BYTES = 1000") || !strings.Contains(string(out), "64 KiB") {
		t.Errorf("tandem acp with a 1000-byte cap: %v\n%s", err, out)
	}
}
