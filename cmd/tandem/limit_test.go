package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// `tandem run` configured with a 200k window against a server that takes
// 12k: the first run's turn is refused once, learns the limit, compacts,
// finishes and tells the user; the limit is kept in $TANDEM_HOME, and the
// next process compacts before passing it, with no refusal and no notice.
func TestRunLearnsTheServersLimitForTheNextProcess(t *testing.T) {
	const limit = 12_000
	srv := llmtest.NewServer(t)
	srv.LimitContext("", limit)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"model":"local-model","contextWindows":{"local-model":200000}}`), 0o644)
	for i := range 10 {
		os.WriteFile(filepath.Join(work, fmt.Sprintf("f%d.txt", i)), []byte(strings.Repeat(fmt.Sprintf("line of file %d\n", i), 400)), 0o644)
	}
	var reads atomic.Int32 // the requests of one run are sequential; reset between runs
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		u := &llm.Usage{InputTokens: r.Tokens(), OutputTokens: 10}
		if r.System == compact.SummarySystem {
			return llmtest.Reply{Text: []string{"summary of the reads"}, Usage: u}
		}
		if n := reads.Add(1); n <= 10 {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("r%d", n), Name: "read_file", Args: fmt.Sprintf(`{"path":"f%d.txt"}`, n-1)}}, Usage: u}
		}
		return llmtest.Reply{Text: []string{"read them all"}, Usage: u}
	})
	notice := fmt.Sprintf("accepts at most %d tokens for model local-model", limit)

	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "read every file")
	if code != 0 || !strings.Contains(out, "read them all") {
		t.Fatalf("exit %d, stdout %q\n%s", code, out, errOut)
	}
	// Told once as the agent's notice (the log keeps its own line).
	if n := strings.Count(out, notice); n != 1 || !strings.Contains(out, "[tandem] the server at "+srv.URL) {
		t.Errorf("the limit is told %d times, want once:\nstdout %s\nstderr %s", n, out, errOut)
	}
	if n := refusedBodies(srv.Requests()); n != 1 {
		t.Errorf("%d requests refused in the first run, want 1", n)
	}
	b, err := os.ReadFile(filepath.Join(home, models.LimitsFileName))
	var kept struct {
		Version int `json:"version"`
		Limits  []struct {
			Endpoint, Model string
			Tokens          int
		} `json:"limits"`
	}
	if err != nil || json.Unmarshal(b, &kept) != nil || kept.Version != 1 || len(kept.Limits) != 1 ||
		kept.Limits[0].Endpoint != srv.URL || kept.Limits[0].Model != "local-model" || kept.Limits[0].Tokens != limit {
		t.Fatalf("%s: %s (%v)", models.LimitsFileName, b, err)
	}

	first := len(srv.Requests())
	reads.Store(0)
	out, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "read every file again")
	if code != 0 || !strings.Contains(out, "read them all") {
		t.Fatalf("second run: exit %d, stdout %q\n%s", code, out, errOut)
	}
	if n := refusedBodies(srv.Requests()[first:]); n != 0 {
		t.Errorf("the second process had %d requests refused: it did not start from the kept limit", n)
	}
	if strings.Contains(out+errOut, notice) {
		t.Errorf("the second process told the limit again:\n%s%s", out, errOut)
	}
}

// refusedBodies counts the distinct requests the server's limit refused.
func refusedBodies(reqs []*llmtest.Request) int {
	seen := map[string]bool{}
	for _, r := range reqs {
		if r.Refused {
			seen[string(r.Body)] = true
		}
	}
	return len(seen)
}
