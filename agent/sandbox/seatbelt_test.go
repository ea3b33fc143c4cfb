package sandbox

import (
	"strings"
	"testing"
)

// The Seatbelt profile cannot run here (sandbox-exec is macOS's); these
// tests hold its text to the policy instead.

func TestSeatbeltWorkspaceWrite(t *testing.T) {
	p := Policy{Mode: ModeWorkspaceWrite, Roots: []string{"/Users/me/repo", "/Users/me/lib"},
		Writable: []string{"/private/var/folders/xy/T"}, Hidden: []string{"/Users/me/.tandem/config.json"}}
	got := seatbeltProfile(p)
	for _, want := range []string{
		"(version 1)\n(allow default)\n",
		`(require-not (subpath "/Users/me/repo"))`,
		`(require-not (subpath "/Users/me/lib"))`,
		`(require-not (subpath "/private/var/folders/xy/T"))`,
		`(require-not (literal "/dev/null"))`,
		`(subpath "/Users/me/repo/.git/hooks")`,
		`(subpath "/Users/me/repo/.git/config")`,
		`(subpath "/Users/me/repo/AGENTS.md")`,
		`(subpath "/Users/me/lib/.tandem")`,
		`(subpath "/Users/me/repo/.vscode")`,
		`(regex #"^/Users/me/repo/[^/]*\.code-workspace$")`,
		"(deny file-read* file-write*\n  (subpath \"/Users/me/.tandem/config.json\")\n)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "network") {
		t.Errorf("network is allowed by the policy, yet the profile names it:\n%s", got)
	}
	// The protected denials come after the write confinement: Seatbelt
	// applies the last matching rule.
	if strings.Index(got, "(allow default)") > strings.Index(got, "/Users/me/repo/.git/hooks") {
		t.Errorf("allow default follows a denial:\n%s", got)
	}
	if n, m := strings.Count(got, "("), strings.Count(got, ")"); n != m {
		t.Errorf("unbalanced parentheses: %d ( and %d ):\n%s", n, m, got)
	}
}

func TestSeatbeltReadOnlyAndNetworkDeny(t *testing.T) {
	p := Policy{Mode: ModeReadOnly, Roots: []string{"/Users/me/repo"}, Writable: []string{"/private/tmp"}, NetworkDeny: true}
	got := seatbeltProfile(p)
	if strings.Contains(got, "/Users/me/repo") {
		t.Errorf("read-only mode lets the root be written:\n%s", got)
	}
	for _, want := range []string{`(require-not (subpath "/private/tmp"))`, "(deny network-outbound (remote ip))", "(deny network-bind (local ip))"} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lacks %s:\n%s", want, got)
		}
	}
}

// A path with quotes, backslashes or regex characters cannot break out of
// its literal.
func TestSeatbeltQuotesPaths(t *testing.T) {
	p := Policy{Mode: ModeWorkspaceWrite, Roots: []string{`/Users/me/we"ird\(dir).x`}}
	got := seatbeltProfile(p)
	if !strings.Contains(got, `(require-not (subpath "/Users/me/we\"ird\\(dir).x"))`) {
		t.Errorf("root not quoted as a string:\n%s", got)
	}
	if !strings.Contains(got, `(regex #"^/Users/me/we\"ird\\\(dir\)\.x/[^/]*\.code-workspace$")`) {
		t.Errorf("root not quoted in the regex:\n%s", got)
	}
}
