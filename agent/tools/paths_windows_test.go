package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

// On Windows a drive letter in either case is one root, protected names
// match in any case and with the trailing dots Win32 drops, and another
// drive is outside (so protected: fail closed), and so is what may be an
// 8.3 alias of a protected name.
func TestProtectedWindows(t *testing.T) {
	root := `C:\Repo`
	for _, c := range []struct {
		abs  string
		want bool
	}{
		{`c:\repo\main.go`, false},
		{`C:\REPO\.GIT\config`, true},
		{`c:\repo\.git.\config`, true},
		{`C:\Repo\pkg\agents.md`, true},
		{`C:\Repo\AGENTS.md. `, true},
		{`D:\Repo\main.go`, true},
		{`\\srv\share\main.go`, true},
		// 8.3 aliases may open a protected entry: Windows' and Wine's.
		{`C:\Repo\GIT~1\config`, true},
		{`C:\Repo\_GIT~IBP\hooks\pre-commit`, true},
		{`C:\Repo\pkg\COPILO~1.MD`, true},
	} {
		if got := Protected(root, c.abs, []string{"AGENTS.md"}); got != c.want {
			t.Errorf("Protected(%q, %q) = %v, want %v", root, c.abs, got, c.want)
		}
	}
}

// Resolve accepts the root's own absolute spelling in another case and
// refuses another drive.
func TestResolveWindowsDrives(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	other := strings.ToLower(root[:1]) + root[1:]
	if strings.ToLower(root[:1]) == root[:1] {
		other = strings.ToUpper(root[:1]) + root[1:]
	}
	got, err := Resolve(root, filepath.Join(strings.ToUpper(other), "a.go"))
	if err != nil {
		t.Fatalf("Resolve with the root in upper case: %v", err)
	}
	if !strings.EqualFold(got, filepath.Join(root, "a.go")) {
		t.Errorf("Resolve = %q, want %q", got, filepath.Join(root, "a.go"))
	}
	drive := "Q:"
	if strings.EqualFold(root[:2], drive) {
		drive = "R:"
	}
	if _, err := Resolve(root, drive+`\a.go`); err == nil {
		t.Errorf("Resolve(%q) on another drive succeeded", drive+`\a.go`)
	}
	if _, err := Resolve(root, `sub\..\..\x.go`); err == nil {
		t.Error(`Resolve(sub\..\..\x.go) escaped the root`)
	}
}
