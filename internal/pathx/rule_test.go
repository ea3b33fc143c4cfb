package pathx

import "testing"

var (
	unix    = Rule{}
	mac     = Rule{Fold: true}
	windows = Rule{Windows: true, Fold: true}
)

func TestWithinRules(t *testing.T) {
	for _, c := range []struct {
		r      Rule
		dir, p string
		rel    string
		ok     bool
	}{
		{unix, "/Users/x/Repo", "/users/x/repo/a", "", false},
		{mac, "/Users/x/Repo", "/users/x/repo/a", "a", true},
		{mac, "/Users/x/Repo", "/Users/x/Repo2/a", "", false},
		{mac, "/w", "/W/../x", "", false},
		{unix, `/w`, `/w/a\b`, `a\b`, true}, // a backslash is a name character on Unix

		{windows, `C:\Repo`, `c:\repo`, ".", true},
		{windows, `C:\Repo`, `c:\REPO\src\a.go`, `src\a.go`, true},
		{windows, `C:\Repo`, `C:/Repo/src/a.go`, `src\a.go`, true},
		{windows, `C:\Repo`, `D:\Repo\a.go`, "", false},
		{windows, `C:\Repo`, `C:\Repo\..\x`, "", false},
		{windows, `C:\Repo`, `C:\Repo\a\..\..\x`, "", false},
		{windows, `C:\Repo`, `C:\Repo2`, "", false},
		{windows, `C:\Repo`, `\Repo\a`, "", false},     // rooted on the current drive
		{windows, `C:\Repo`, `C:Repo\a`, "", false},    // drive-relative
		{windows, `C:\Repo`, `C:\Repo\NUL`, "", false}, // a device, not a file
		{windows, `C:\Repo`, `C:\Repo\com1.txt`, "", false},
		{windows, `C:\Repo`, `C:\Repo\console.txt`, "console.txt", true},
		{windows, `C:\Repo`, `C:\Repo.\a`, "a", true}, // Win32 drops the trailing dot
		{windows, `C:\Repo`, `\\?\C:\Repo\a`, "a", true},
		{windows, `C:\Repo`, `\\.\pipe\x`, "", false},
		{windows, `\\Server\Share\repo`, `\\server\share\Repo\a.go`, "a.go", true},
		{windows, `\\server\share\repo`, `\\server\other\repo\a.go`, "", false},
		{windows, `\\server\share\repo`, `\\other\share\repo\a.go`, "", false},
		{windows, `\\server\share\repo`, `\\server\share\repo\..\..\x`, "", false},
		{windows, `\\server\share`, `\\server\share\a`, "a", true},
		{windows, `\\server\share\repo`, `\\?\UNC\server\share\repo\a`, "a", true},
		{windows, `\\server`, `\\server\share`, "", false},
		{windows, `C:\`, `C:\a`, "a", true},
		{windows, `w`, `w\a`, "a", true},
		{windows, `C:\Repo`, `C:\Repo\..foo`, "..foo", true},
	} {
		rel, ok := within(c.dir, c.p, c.r)
		if rel != c.rel || ok != c.ok {
			t.Errorf("%+v: within(%q, %q) = %q, %v; want %q, %v", c.r, c.dir, c.p, rel, ok, c.rel, c.ok)
		}
	}
}

func TestNameKey(t *testing.T) {
	for _, c := range []struct {
		r          Rule
		name, want string
	}{
		{unix, ".GIT", ".git"},
		{unix, ".git.", ".git."},
		{windows, ".GIT. ", ".git"},
		{windows, "AGENTS.md.", "agents.md"},
		{windows, "..", ".."},
	} {
		if got := nameKey(c.name, c.r); got != c.want {
			t.Errorf("%+v: nameKey(%q) = %q, want %q", c.r, c.name, got, c.want)
		}
	}
}

func TestMaybeShortName(t *testing.T) {
	for _, c := range []struct {
		name      string
		onWindows bool
	}{
		{"GIT~1", true},        // Windows' alias of .git
		{"git~1", true},        // names compare case-insensitively
		{"_GIT~IBP", true},     // Wine's
		{"COPILO~1.MD", true},  // copilot-instructions.md
		{"X~~~~QZP.COD", true}, // Wine's x.code-workspace
		{"GI1A2B~1", true},     // Windows' hashed form
		{"GIT~1. ", true},      // trailing dot and space dropped
		{".git", false},
		{"notes~draft.txt", false}, // base too long for 8.3
		{"a~1.json", false},        // extension too long
		{"plain", false},
	} {
		if got := maybeShortName(c.name, windows); got != c.onWindows {
			t.Errorf("maybeShortName(%q) under Windows = %v, want %v", c.name, got, c.onWindows)
		}
		if maybeShortName(c.name, unix) {
			t.Errorf("maybeShortName(%q) under Unix = true: only Windows has 8.3 aliases", c.name)
		}
	}
}
