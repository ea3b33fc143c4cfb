package treesitter

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files under testdata/defs")

// render prints definitions one per line, indented by depth, so a golden
// file reads like an outline.
func render(defs []Definition) string {
	var b strings.Builder
	for _, d := range defs {
		name := d.Name
		if d.Parent != "" {
			name = d.Parent + "." + d.Name
		}
		fmt.Fprintf(&b, "%s%s %s %d-%d", strings.Repeat("  ", d.Depth), d.Kind, name, d.Start, d.End)
		if d.Group != 0 {
			fmt.Fprintf(&b, " group=%d-%d", d.Group, d.GroupEnd)
		}
		fmt.Fprintf(&b, " | %s\n", d.Signature)
	}
	return b.String()
}

func samples(t testing.TB) []string {
	paths, err := filepath.Glob("testdata/defs/*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		if !strings.HasSuffix(p, ".golden") {
			out = append(out, p)
		}
	}
	return out
}

func TestDefinitionsGolden(t *testing.T) {
	covered := map[string]bool{}
	for _, path := range samples(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			lang := ForPath(path)
			if lang == nil {
				t.Fatalf("no language for %s", path)
			}
			covered[lang.Name] = true
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defs, err := Definitions(lang, src)
			if err != nil {
				t.Fatal(err)
			}
			got := render(defs)
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("definitions of %s differ from %s (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, golden, got, want)
			}
		})
	}
	for _, l := range Languages() {
		if !covered[l.Name] {
			t.Errorf("language %s has no sample under testdata/defs", l.Name)
		}
	}
}
