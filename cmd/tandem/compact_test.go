package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A long `tandem run` turn in a small window (config.json's contextWindows
// and compactAt) compacts on its own, shows it on stderr and finishes; a
// run of "/compact" on a fresh session says there is nothing to compact.
func TestRunCompactsALongTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"model":"small-model","contextWindows":{"small-model":12000},"compactAt":0.8}`), 0o644)
	for i := range 10 {
		os.WriteFile(filepath.Join(work, fmt.Sprintf("f%d.txt", i)), []byte(strings.Repeat(fmt.Sprintf("line of file %d\n", i), 400)), 0o644)
	}
	reads := 0
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		n := len(r.Body) / 4
		if n > 12000 {
			return llmtest.Reply{Status: 400, Message: fmt.Sprintf("prompt is too long: %d tokens > 12000 maximum", n)}
		}
		u := &llm.Usage{InputTokens: n, OutputTokens: 10}
		if r.System == compact.SummarySystem {
			return llmtest.Reply{Text: []string{"summary of the reads"}, Usage: u}
		}
		if reads < 10 { // requests of one turn are sequential
			reads++
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("r%d", reads), Name: "read_file", Args: fmt.Sprintf(`{"path":"f%d.txt"}`, reads-1)}}, Usage: u}
		}
		return llmtest.Reply{Text: []string{"read them all"}, Usage: u}
	})
	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "read every file")
	if code != 0 || !strings.Contains(out, "read them all") {
		t.Fatalf("exit %d, stdout %q\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "✓ Compacting conversation…") { // one line per call, with its outcome
		t.Errorf("stderr does not show the compaction:\n%s", errOut)
	}
	for _, r := range srv.Requests() {
		if len(r.Body)/4 > 12000 {
			t.Errorf("request %d passed the window: %d tokens", r.N, len(r.Body)/4)
		}
	}

	out, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "/compact")
	if code != 0 || !strings.Contains(out, "Nothing to compact yet") {
		t.Errorf("/compact: exit %d, stdout %q\n%s", code, out, errOut)
	}
}
