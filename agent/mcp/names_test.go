package mcp

import (
	"regexp"
	"strings"
	"testing"
)

func TestToolName(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	long := strings.Repeat("x", 80)
	for _, tc := range []struct{ server, tool, want string }{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"everything", "get-sum", "mcp__everything__get-sum"},
		{"my server", "read.file", "mcp__my_server__read_file"},
		{"ünï", "tool/x", "mcp___n___tool_x"},
		{"", "", "mcp______"},
	} {
		if got := ToolName(tc.server, tc.tool); got != tc.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
		}
	}
	a, b := ToolName("srv", long+"a"), ToolName("srv", long+"b")
	if a == b || !valid.MatchString(a) || !valid.MatchString(b) || !strings.HasPrefix(a, "mcp__srv__xxx") {
		t.Errorf("long names %q and %q: want distinct, valid, recognisable", a, b)
	}
}

// Two tools whose names sanitize alike still get distinct names.
func TestClaimNameUnique(t *testing.T) {
	m := &Manager{names: map[string]string{}}
	a := m.claimName("s", "a.b")
	b := m.claimName("s", "a_b")
	if a == b || a != "mcp__s__a_b" {
		t.Errorf("claimed %q and %q", a, b)
	}
	if again := m.claimName("s", "a.b"); again != a {
		t.Errorf("the same tool got a new name %q (was %q)", again, a)
	}
}
