package editors

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// emacsMajor is the major version of the emacs binary, 0 if unknown.
func emacsMajor(t *testing.T, emacs string) int {
	t.Helper()
	out, err := exec.Command(emacs, "--version").Output()
	if err != nil {
		t.Fatalf("emacs --version: %v", err)
	}
	m := regexp.MustCompile(`^GNU Emacs (\d+)`).FindSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// agentShellDeps runs emacs/test/vendored-deps.sh, which checks that
// agent-shell and its dependencies are vendored at the pinned commits in
// ../shared/vendor/emacs (beside the repository) and prints their
// directories. They are part of the test's inputs, not a program the
// machine may lack, so their absence fails the test with the script's
// message rather than skipping it.
func agentShellDeps(t *testing.T) []string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("emacs", "test", "vendored-deps.sh"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script).Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		t.Fatalf("agent-shell sources: %s", msg)
	}
	return strings.Fields(string(out))
}

// checkAgentShellShell checks what agent-shell's buffer showed: after the
// first prompt (first) the approved edit as done with its diff and the plan
// once; at the end (final) both failed edits as errors with their message
// and without the diff the second one proposed.
func checkAgentShellShell(t *testing.T, first, final string) {
	t.Helper()
	for _, want := range []string{"[done][edit] sub/hello.txt", "-hello world\n+goodbye world",
		"The greeting is on line 2.", "Changed the greeting.", "[busy] Rewrite the greeting"} {
		if !strings.Contains(first, want) {
			t.Errorf("after the first prompt the shell lacks %q", want)
		}
	}
	if strings.Contains(first, "[error]") {
		t.Error("after the first prompt the shell shows an error")
	}
	// The plan arrives as a plan update; the update_plan call must not
	// repeat it (agent-shell renders a rawInput plan as "Proposed plan").
	if n := strings.Count(final, "Rewrite the greeting"); n != 1 || strings.Contains(final, "Proposed plan") {
		t.Errorf("the plan is shown %d times, want once", n)
	}
	_, rest, ok := strings.Cut(final, "tandem> make an edit that cannot apply")
	missing, changed, ok2 := strings.Cut(rest, "tandem> edit it again")
	if !ok || !ok2 {
		t.Fatal("the shell lacks the second or third prompt")
	}
	for _, c := range []struct{ name, text, err string }{
		{"the edit of missing text", missing, "old_string was not found"},
		{"the edit of a file changed meanwhile", changed, "the file changed since it was read"},
	} {
		if !strings.Contains(c.text, "[error][edit] sub/hello.txt") || !strings.Contains(c.text, c.err) {
			t.Errorf("%s is not shown failed with %q", c.name, c.err)
		}
		if strings.Contains(c.text, "[done]") || strings.Contains(c.text, "+farewell world") {
			t.Errorf("%s shows as done or with its proposed diff", c.name)
		}
	}
}

// checkAgentShellTranscript checks agent-shell's Markdown transcript: the
// approved edit completed, the two failing ones failed.
func checkAgentShellTranscript(t *testing.T, log string) {
	t.Helper()
	if n := strings.Count(log, "### Tool Call [completed]: Edit sub/hello.txt"); n != 1 {
		t.Errorf("transcript has %d completed edits, want 1", n)
	}
	if n := strings.Count(log, "### Tool Call [failed]: Edit sub/hello.txt"); n != 2 {
		t.Errorf("transcript has %d failed edits, want 2", n)
	}
}
