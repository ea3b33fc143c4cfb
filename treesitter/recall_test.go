package treesitter

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecall parses the excerpts under testdata/recall, each written after
// a pattern where tandem used to miss definitions that universal-ctags
// finds, and checks every name its .want file lists (one per line) is
// found; a line starting with ! names something that must not appear.
func TestRecall(t *testing.T) {
	wants, err := filepath.Glob("testdata/recall/*.want")
	if err != nil || len(wants) == 0 {
		t.Fatalf("no recall cases: %v", err)
	}
	for _, want := range wants {
		src := strings.TrimSuffix(want, ".want")
		t.Run(filepath.Base(src), func(t *testing.T) {
			lang := ForPath(src)
			if lang == nil {
				t.Fatalf("no language for %s", src)
			}
			code, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			defs, err := Definitions(lang, code)
			if err != nil {
				t.Fatal(err)
			}
			found := map[string]bool{}
			for _, d := range defs {
				found[d.Name] = true
			}
			f, err := os.Open(want)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				name := strings.TrimSpace(sc.Text())
				switch {
				case name == "":
				case strings.HasPrefix(name, "!"):
					if found[name[1:]] {
						t.Errorf("%s is listed as a definition; it is not one", name[1:])
					}
				case !found[name]:
					t.Errorf("%s is missing\n%s", name, render(defs))
				}
			}
		})
	}
}
