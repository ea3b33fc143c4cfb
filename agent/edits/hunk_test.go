package edits

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the want section of testdata/unified/*.txtar")

// archive is a txtar file: a comment, then "-- name --" sections.
type archive struct {
	comment string
	names   []string
	files   map[string]string
}

func parseArchive(data string) archive {
	a := archive{files: map[string]string{}}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			a.comment = b.String()
		} else {
			a.files[cur] = b.String()
			a.names = append(a.names, cur)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "-- "); ok && strings.HasSuffix(name, " --") {
			flush()
			cur = strings.TrimSuffix(name, " --")
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

func (a archive) format() string {
	var b strings.Builder
	b.WriteString(a.comment)
	for _, n := range a.names {
		b.WriteString("-- " + n + " --\n" + a.files[n])
	}
	return b.String()
}

// TestUnified runs testdata/unified/*.txtar: "old" and "new" sections, the
// rendered "want", and the words create or delete in the comment for those
// kinds of FileEdit.
func TestUnified(t *testing.T) {
	files, _ := filepath.Glob("testdata/unified/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/unified/*.txtar cases")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(string(data))
			fe := FileEdit{
				Path: "/w/f.txt", Old: a.files["old"], New: a.files["new"],
				Create: strings.Contains(a.comment, "create"),
				Delete: strings.Contains(a.comment, "delete"),
			}
			got := Unified(fe.Path, fe)
			if *update {
				a.files["want"] = got
				if err := os.WriteFile(file, []byte(a.format()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := a.files["want"]; got != want {
				t.Errorf("Unified:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestUnifiedNoNewline(t *testing.T) {
	got := Unified("f", FileEdit{Old: "a\nb", New: "a\nc"})
	want := "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Unified("f", FileEdit{Old: "same", New: "same"}); got != "" {
		t.Errorf("no change rendered %q", got)
	}
}

// TestDiffRebuilds checks hunks against the texts they came from: walking
// old with the hunks must meet every kept and deleted line where the hunk
// says and produce exactly new.
func TestDiffRebuilds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for range 2000 {
		old := randomText(r, 60)
		new := mutate(r, old)
		if got := rebuild(t, old, Diff(old, new)); got != new {
			t.Fatalf("rebuilt %q, want %q from %q", got, new, old)
		}
	}
}

func rebuild(t *testing.T, old string, hunks []Hunk) string {
	t.Helper()
	ob := lineBounds(old)
	var b strings.Builder
	next := 0 // index of the next old line to copy
	for _, h := range hunks {
		start := h.OldStart - 1
		if h.OldLines == 0 {
			start = h.OldStart
		}
		if start < next {
			t.Fatalf("hunk at old line %d overlaps the previous one", h.OldStart)
		}
		for ; next < start; next++ {
			b.WriteString(old[ob[next]:ob[next+1]])
		}
		for _, l := range h.Lines {
			if l.Op != Insert {
				if got := old[ob[next]:ob[next+1]]; got != l.Text {
					t.Fatalf("hunk line %q, old line %d is %q", l.Text, next+1, got)
				}
				next++
			}
			if l.Op != Delete {
				b.WriteString(l.Text)
			}
		}
	}
	b.WriteString(old[ob[next]:])
	return b.String()
}
