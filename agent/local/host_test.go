package local

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
)

func TestApplyEditOnDisk(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(dir string) edits.FileEdit
		applied bool
		reason  string
		check   func(t *testing.T, dir string)
	}{
		{name: "replace keeps mode",
			edit: func(d string) edits.FileEdit {
				return edits.FileEdit{Path: filepath.Join(d, "run.sh"), Old: "old\n", New: "new\n"}
			},
			applied: true,
			check: func(t *testing.T, d string) {
				fi, _ := os.Stat(filepath.Join(d, "run.sh"))
				data, _ := os.ReadFile(filepath.Join(d, "run.sh"))
				if string(data) != "new\n" || fi.Mode().Perm() != 0o751 {
					t.Errorf("content %q mode %v", data, fi.Mode().Perm())
				}
			}},
		{name: "create makes parent dirs",
			edit: func(d string) edits.FileEdit {
				return edits.FileEdit{Path: filepath.Join(d, "x/y/z.txt"), New: "z", Create: true}
			},
			applied: true,
			check: func(t *testing.T, d string) {
				if data, _ := os.ReadFile(filepath.Join(d, "x/y/z.txt")); string(data) != "z" {
					t.Errorf("content %q", data)
				}
			}},
		{name: "delete",
			edit: func(d string) edits.FileEdit {
				return edits.FileEdit{Path: filepath.Join(d, "run.sh"), Old: "old\n", Delete: true}
			},
			applied: true,
			check: func(t *testing.T, d string) {
				if _, err := os.Stat(filepath.Join(d, "run.sh")); !os.IsNotExist(err) {
					t.Errorf("still there: %v", err)
				}
			}},
		{name: "changed on disk since read",
			edit: func(d string) edits.FileEdit {
				return edits.FileEdit{Path: filepath.Join(d, "run.sh"), Old: "stale\n", New: "new\n"}
			},
			reason: "changed since it was read"},
		{name: "create over an existing file",
			edit: func(d string) edits.FileEdit {
				return edits.FileEdit{Path: filepath.Join(d, "run.sh"), New: "new\n", Create: true}
			},
			reason: "already exists"},
		{name: "edit of a vanished file",
			edit: func(d string) edits.FileEdit {
				return edits.FileEdit{Path: filepath.Join(d, "gone.txt"), Old: "x", New: "y"}
			},
			reason: "no longer exists"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("old\n"), 0o751); err != nil {
				t.Fatal(err)
			}
			res, err := Host{}.ApplyEdit(context.Background(), c.edit(dir))
			if err != nil {
				t.Fatal(err)
			}
			if res.Applied != c.applied || !strings.Contains(res.Reason, c.reason) {
				t.Fatalf("got %+v", res)
			}
			if !c.applied {
				if data, _ := os.ReadFile(filepath.Join(dir, "run.sh")); string(data) != "old\n" {
					t.Errorf("file changed by a refused edit: %q", data)
				}
			}
			if c.check != nil {
				c.check(t, dir)
			}
			// No temp files left behind.
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tandem-") {
					t.Errorf("temp file left: %s", e.Name())
				}
			}
		})
	}
}
