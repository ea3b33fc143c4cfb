package pathx

import "testing"

// On Windows the native rule is the Windows one: one drive spelled two
// ways is one root, and another drive is never inside.
func TestWithinNativeWindows(t *testing.T) {
	if rel, ok := Within(`C:\Repo`, `c:\repo\Src\a.go`); !ok || rel != `Src\a.go` {
		t.Errorf(`Within(C:\Repo, c:\repo\Src\a.go) = %q, %v`, rel, ok)
	}
	if _, ok := Within(`C:\Repo`, `D:\Repo\a.go`); ok {
		t.Error(`D:\Repo\a.go counted as inside C:\Repo`)
	}
	if _, ok := Within(`\\srv\share\repo`, `\\SRV\Share\repo\a`); !ok {
		t.Error("UNC share spelled in another case counted as outside")
	}
}
