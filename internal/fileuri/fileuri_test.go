package fileuri

import (
	"errors"
	"testing"
)

func TestToPath(t *testing.T) {
	for _, c := range []struct {
		uri     string
		windows bool
		want    string // "" for an error
	}{
		{"file:///home/x/a.go", false, "/home/x/a.go"},
		{"file:///home/x/a%20b.go", false, "/home/x/a b.go"},
		{"file://localhost/home/x/../y", false, "/home/y"},
		{"file://server/share/a", false, ""},
		{"file:///C:/Users/x/a.go", true, `C:\Users\x\a.go`},
		{"file:///c%3A/Users/x/a.go", true, `C:\Users\x\a.go`}, // as VS Code sends it
		{"file:///c:/Users/x/../y/a%20b.go", true, `C:\Users\y\a b.go`},
		{"file:///C:/", true, `C:\`},
		{"file://server/share/dir/a.go", true, `\\server\share\dir\a.go`},
		{"file://server/share", true, `\\server\share`},
		{"file://server/share/../../x", true, `\\server\share\x`},
		{"file://localhost/C:/x", true, `C:\x`},
		{"file:///home/x", true, ""}, // no drive
		{"file:///C:x", true, ""},
		{"file://server/", true, ""},
		{"http://x/a", true, ""},
		{"", false, ""},
		{"file:a.go", false, ""},
	} {
		got, err := toPath(c.uri, c.windows)
		if c.want == "" {
			if err == nil || !errors.Is(err, ErrNotFile) {
				t.Errorf("toPath(%q, windows=%v) = %q, %v; want ErrNotFile", c.uri, c.windows, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("toPath(%q, windows=%v) = %q, %v; want %q", c.uri, c.windows, got, err, c.want)
		}
	}
}

func TestFromPath(t *testing.T) {
	for _, c := range []struct {
		path    string
		windows bool
		want    string
	}{
		{"/home/x/a b.go", false, "file:///home/x/a%20b.go"},
		{"/home/x/#1.go", false, "file:///home/x/%231.go"},
		{`C:\Users\x\a.go`, true, "file:///C:/Users/x/a.go"},
		{`C:\Users\x\a b#.go`, true, "file:///C:/Users/x/a%20b%23.go"},
		{`\\server\share\dir\a.go`, true, "file://server/share/dir/a.go"},
	} {
		got := fromPath(c.path, c.windows)
		if got != c.want {
			t.Errorf("fromPath(%q, windows=%v) = %q, want %q", c.path, c.windows, got, c.want)
		}
		// Both ways: the URI reads back as the path.
		if back, err := toPath(got, c.windows); err != nil || back != c.path {
			t.Errorf("toPath(fromPath(%q)) = %q, %v", c.path, back, err)
		}
	}
}
