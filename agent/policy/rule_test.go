package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/pathx"
)

// parseRule is ParseRule for a rule that stands for one tandem rule.
func parseRule(s string) (Rule, error) {
	rs, err := ParseRule(s)
	if err != nil {
		return Rule{}, err
	}
	if len(rs) != 1 {
		return Rule{}, fmt.Errorf("%q stands for %d rules", s, len(rs))
	}
	return rs[0], nil
}

func TestRuleSyntax(t *testing.T) {
	for _, s := range []string{"run_command(go test:*)", "run_command(npm run lint)", "edit_file(src/**)", "mcp__srv__echo", "run_command", "run_command('my tool' x:*)"} {
		r, err := parseRule(s)
		if err != nil || r.String() != s {
			t.Errorf("parseRule(%q) = %v, %v; String %q", s, r, err, r.String())
		}
	}
	for _, s := range []string{"", "(x)", "run_command(go test", "run_command()", "run command(x)", "run_command(a && b:*)", "run_command(go > x)", "run_command($X:*)",
		"edit_file(../x)", "edit_file(src/[)", "Bash(rm -rf $(x):*)"} {
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
		if got := matchGlob(tc.pattern, tc.rel, pathx.Rule{}); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tc.pattern, tc.rel, got, tc.want)
		}
	}
}

// Path rules compare names as the OS's file system does: on macOS and
// Windows SRC/a.go is src/a.go (and on Windows "a.env." is "a.env"), so a
// deny rule cannot be dodged by spelling; on Linux case matters.
func TestGlobFoldsCaseWhereTheOSDoes(t *testing.T) {
	linux, mac, win := pathx.Rule{}, pathx.Rule{Fold: true}, pathx.Rule{Windows: true, Fold: true}
	for _, tc := range []struct {
		pattern, rel        string
		linux, mac, windows bool
	}{
		{"secrets/**", "Secrets/key", false, true, true},
		{"**/*.env", "app/PROD.ENV", false, true, true},
		{"**/*.env", "app/prod.env. ", false, false, true},
		{"[A-Z]*.go", "main.go", false, true, true},
		{"src/*.go", "src/a.go", true, true, true},
		{"src/*.go", "lib/a.go", false, false, false},
	} {
		for _, c := range []struct {
			name string
			r    pathx.Rule
			want bool
		}{{"Linux", linux, tc.linux}, {"macOS", mac, tc.mac}, {"Windows", win, tc.windows}} {
			if got := matchGlob(tc.pattern, tc.rel, c.r); got != c.want {
				t.Errorf("%s: matchGlob(%q, %q) = %v, want %v", c.name, tc.pattern, tc.rel, got, c.want)
			}
		}
	}
	// Through a whole path rule: the target's rule decides.
	tg := newTarget(Call{Tool: "edit_file", Root: "/repo", Path: "/repo/Secrets/key"})
	tg.rule = mac
	if !matchPath("secrets/**", tg) {
		t.Error(`under the macOS rule "secrets/**" does not match /repo/Secrets/key`)
	}
	tg.rule = linux
	if matchPath("secrets/**", tg) {
		t.Error(`under the Linux rule "secrets/**" matches /repo/Secrets/key`)
	}
}

// TestAliases checks that Claude Code's rules read as the tandem rules
// they mean, path forms included.
func TestAliases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Bash(npm run test:*)", "run_command(npm run test:*)"},
		{"Bash(git diff *)", "run_command(git diff:*)"},
		{"Bash", "run_command"},
		{"Edit(src/**)", "edit_file(src/**) write_file(src/**)"},
		{"Edit(/src/**)", "edit_file(src/**) write_file(src/**)"},
		{"Edit(//etc/**)", "edit_file(/etc/**) write_file(/etc/**)"},
		{"Write(./docs/*.md)", "write_file(docs/*.md)"},
		{"Read(./.env)", "read_file(./.env) list_files(./.env) search_files(./.env) list_code_definition_names(./.env)"},
		{"Edit(/Makefile)", "edit_file(./Makefile) write_file(./Makefile)"},
		{"Read(~/.ssh/**)", "read_file(~/.ssh/**) list_files(~/.ssh/**) search_files(~/.ssh/**) list_code_definition_names(~/.ssh/**)"},
		{"Glob", "list_files"},
		{"Grep", "search_files"},
		{"WebFetch(domain:example.com)", "WebFetch(domain:example.com)"},
		{"mcp__github__create_issue", "mcp__github__create_issue"},
		{"edit_file(/etc/**)", "edit_file(/etc/**)"},
		{"  run_command( go test:* ) ", "run_command(go test:*)"},
	} {
		rs, err := ParseRule(tc.in)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", tc.in, err)
			continue
		}
		var got []string
		for _, r := range rs {
			got = append(got, r.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ParseRule(%q) = %q, want %q", tc.in, strings.Join(got, " "), tc.want)
		}
	}
}
