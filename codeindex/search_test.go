package codeindex

import "testing"

func TestSearch(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, smallTree)
	writeTree(t, root, map[string]string{"more/circle.py": "class CircleView:\n    pass\n\ndef circle():\n    pass\n"})
	ix := open(t, root, "")
	names := func(syms []Symbol) []string {
		var out []string
		for _, s := range syms {
			out = append(out, s.Path+":"+s.Name)
		}
		return out
	}
	tests := []struct {
		query string
		how   Match
		limit int
		want  []string
	}{
		{"circle", MatchExact, 0, []string{"more/circle.py:circle", "shapes/shapes.go:Circle"}},
		{"CIRCLE", MatchExact, 1, []string{"more/circle.py:circle"}},
		{"circ", MatchPrefix, 0, []string{"more/circle.py:circle", "shapes/shapes.go:Circle", "more/circle.py:CircleView"}},
		{"nwcrc", MatchFuzzy, 0, []string{"shapes/shapes.go:NewCircle"}},
		{"circle", MatchFuzzy, 2, []string{"more/circle.py:circle", "shapes/shapes.go:Circle"}},
		{"zzz", MatchPrefix, 0, nil},
		{"", MatchFuzzy, 0, nil},
	}
	for _, tt := range tests {
		if got := names(ix.Search(tt.query, tt.how, tt.limit)); !equal(got, tt.want) {
			t.Errorf("Search(%q, %v, %d) = %v, want %v", tt.query, tt.how, tt.limit, got, tt.want)
		}
	}
}
