package fileuri

import "testing"

// The exported pair uses the Windows rule on Windows.
func TestNativeWindows(t *testing.T) {
	p, err := ToPath("file:///c%3A/Users/x/a.go")
	if err != nil || p != `C:\Users\x\a.go` {
		t.Errorf("ToPath = %q, %v", p, err)
	}
	if u := FromPath(`C:\Users\x\a.go`); u != "file:///C:/Users/x/a.go" {
		t.Errorf("FromPath = %q", u)
	}
}
