package policy

import (
	"strings"
	"testing"
)

// On Windows no command is confined, so full-auto asks before every one,
// even when the host could not say (a library caller's runner), and says
// why; the user's own allow rule still counts.
func TestWindowsAsksInsteadOfSandbox(t *testing.T) {
	v := Decide(ModeFullAuto, run("go test ./..."), Rules{})
	if v.Decision != Ask || !strings.Contains(v.Reason, "Windows has no kernel sandbox") {
		t.Fatalf("full-auto command on Windows: %+v", v)
	}
	if v := Decide(ModeFullAuto, run("go test ./..."), mustRules(t, []string{"run_command(go test:*)"}, nil)); v.Decision != Allow {
		t.Errorf("allowed command on Windows: %+v", v)
	}
	if v := Decide(ModeFullAuto, edit("src/a.go"), Rules{}); v.Decision != Allow {
		t.Errorf("full-auto edit on Windows: %+v", v)
	}
}
