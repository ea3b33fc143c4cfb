package tools

import (
	"os"
	"strings"
	"testing"
)

// resolveInfo hands back the walk's own Lstat of the result, so a tool
// step does not stat the file again; where the walk did not end on the
// result (missing, a symlink followed) it returns nil and the caller looks.
func TestResolveInfoIsTheResultsLstat(t *testing.T) {
	f := newFixture(t, map[string]string{"dir/a.txt": "x"})
	if err := os.Symlink("dir", f.abs("link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("dir/..", f.abs("up")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in      string
		want    string
		dir, ok bool // ok: an Lstat came back
	}{
		{"dir/a.txt", f.abs("dir/a.txt"), false, true},
		{"dir", f.abs("dir"), true, true},
		{"dir/./a.txt", f.abs("dir/a.txt"), false, true},
		{"link/a.txt", f.abs("dir/a.txt"), false, true},
		{"link", f.abs("dir"), true, true},
		{"up", f.root, true, false}, // the walk ends on a "..": it looks again
		{"dir/new.txt", f.abs("dir/new.txt"), false, false},
		{".", f.root, true, false},
	} {
		abs, fi, err := f.env.resolveInfo(c.in)
		if err != nil || abs != c.want || (fi != nil) != c.ok {
			t.Errorf("resolveInfo(%q) = %q, %v, %v; want %q with an Lstat %v", c.in, abs, fi, err, c.want, c.ok)
			continue
		}
		if fi != nil {
			real, err := os.Lstat(abs)
			if err != nil || !os.SameFile(fi, real) || fi.IsDir() != c.dir {
				t.Errorf("resolveInfo(%q): Lstat %v is not the result's (%v, %v)", c.in, fi, real, err)
			}
		}
		if isDir(abs, fi) != c.dir {
			t.Errorf("isDir(%q) = %v", c.in, !c.dir)
		}
	}
}

// The tools that read or edit a file still tell a directory apart, spelled
// plainly or through a symlink, without a stat of their own.
func TestReadAndEditRefuseDirectories(t *testing.T) {
	f := newFixture(t, map[string]string{"dir/a.txt": "x"})
	if err := os.Symlink("dir", f.abs("link")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"dir", "link", "."} {
		if res := f.run(t, NewReadFile(), map[string]any{"path": p}); !res.IsError || !strings.Contains(res.Output, "is a directory") {
			t.Errorf("read_file %s: %+v", p, res)
		}
		if res := f.run(t, NewEditFile(), map[string]any{"path": p, "old_string": "x", "new_string": "y"}); !res.IsError || !strings.Contains(res.Output, "is a directory") {
			t.Errorf("edit_file %s: %+v", p, res)
		}
	}
	if res := f.run(t, NewEditFile(), map[string]any{"path": "link/a.txt", "old_string": "x", "new_string": "y"}); res.IsError || f.read(t, "dir/a.txt") != "y" {
		t.Errorf("edit through a linked directory: %+v", res)
	}
}
