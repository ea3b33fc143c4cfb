package policy

import (
	"strings"
	"testing"
)

func TestSandboxInApproval(t *testing.T) {
	unconfined := run("go test ./...")
	unconfined.Unconfined = "the kernel has no Landlock"
	if v := Decide(ModeFullAuto, unconfined, Rules{}); v.Decision != Ask || !strings.Contains(v.Reason, "only inside the sandbox") || v.AllowAlways == nil {
		t.Errorf("full-auto without a sandbox: %+v", v)
	}
	if v := Decide(ModeFullAuto, run("go test ./..."), Rules{}); v.Decision != Allow && noKernelSandbox == "" {
		t.Errorf("full-auto in the sandbox: %+v", v)
	}
	// An explicit allow rule is the user's word, sandbox or not.
	if v := Decide(ModeFullAuto, unconfined, mustRules(t, []string{"run_command(go test:*)"}, nil)); v.Decision != Allow {
		t.Errorf("allowed command without a sandbox: %+v", v)
	}
	// Edits are not the sandbox's business.
	if v := Decide(ModeFullAuto, edit("src/a.go"), Rules{}); v.Decision != Allow {
		t.Errorf("full-auto edit: %+v", v)
	}

	out := run("curl https://example.com")
	out.Unsandboxed = true
	for _, m := range []Mode{ModeCode, ModeAutoEdit, ModeFullAuto} {
		v := Decide(m, out, mustRules(t, []string{"run_command(curl:*)"}, nil))
		if v.Decision != Ask || v.AllowAlways != nil || v.RejectAlways != nil || !strings.Contains(v.CannotAsk, "outside the sandbox") {
			t.Errorf("%s: unsandboxed run: %+v", m, v)
		}
	}
	if v := Decide(ModeFullAuto, out, mustRules(t, nil, []string{"run_command(curl:*)"})); v.Decision != Deny {
		t.Errorf("a deny rule must still refuse an unsandboxed run: %+v", v)
	}
}
