package policy

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/tools"
)

// parseRule reads the Tool(specifier) form String writes. Settings files
// (issue 15) will need it in production; today only tests write rules as text.
func parseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	name, spec, found := strings.Cut(s, "(")
	switch {
	case name == "":
		return Rule{}, errors.New("a rule needs a tool name, as in run_command(go test:*)")
	case strings.ContainsAny(name, " )"):
		return Rule{}, fmt.Errorf("rule %q: the tool name cannot contain spaces or parentheses", s)
	case !found:
		return Rule{Tool: name}, nil
	case !strings.HasSuffix(spec, ")"):
		return Rule{}, fmt.Errorf("rule %q: missing the closing parenthesis", s)
	}
	spec = strings.TrimSpace(strings.TrimSuffix(spec, ")"))
	if spec == "" {
		return Rule{}, fmt.Errorf("rule %q: empty parentheses; drop them to cover every use of %s", s, name)
	}
	r := Rule{Tool: name, Specifier: spec}
	if _, _, err := r.commandPattern(); err != nil && name == tools.RunCommandName {
		return Rule{}, fmt.Errorf("rule %q: %w", s, err)
	}
	return r, nil
}

func TestRuleSyntax(t *testing.T) {
	for _, s := range []string{"run_command(go test:*)", "run_command(npm run lint)", "edit_file(src/**)", "mcp__srv__echo", "run_command", "run_command('my tool' x:*)"} {
		r, err := parseRule(s)
		if err != nil || r.String() != s {
			t.Errorf("parseRule(%q) = %v, %v; String %q", s, r, err, r.String())
		}
	}
	for _, s := range []string{"", "(x)", "run_command(go test", "run_command()", "run command(x)", "run_command(a && b:*)", "run_command(go > x)", "run_command($X:*)"} {
		if r, err := parseRule(s); err == nil {
			t.Errorf("parseRule(%q) = %v, want an error", s, r)
		}
	}
}

func TestRulesAddDeduplicates(t *testing.T) {
	var rs Rules
	r := Rule{Tool: "mcp__a__b"}
	rs.Add(Allow, r, r)
	rs.Add(Allow, r)
	rs.Add(Deny, r)
	if len(rs.Allow) != 1 || len(rs.Deny) != 1 || len(rs.Ask) != 0 {
		t.Errorf("rules %+v", rs)
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, rel string
		want         bool
	}{
		{"src/**", "src/a.go", true},
		{"src/**", "src/a/b/c.go", true},
		{"src/**", "src", false},
		{"src/**", "srcx/a.go", false},
		{"**", "a.go", true},
		{"**/*.md", "README.md", true},
		{"**/*.md", "docs/a/b.md", true},
		{"docs/*.md", "docs/a.md", true},
		{"docs/*.md", "docs/a/b.md", false},
		{"a/**/b.go", "a/b.go", true},
		{"a/**/b.go", "a/x/y/b.go", true},
		{"[", "[", false},
	} {
		if got := matchGlob(tc.pattern, tc.rel); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tc.pattern, tc.rel, got, tc.want)
		}
	}
}
