package edits

import "testing"

func TestACPDiff(t *testing.T) {
	tests := []struct {
		name    string
		fe      FileEdit
		wantOld *string
		wantNew string
	}{
		{"edit", FileEdit{Path: "/w/a", Old: "x", New: "y"}, ptr("x"), "y"},
		{"create", FileEdit{Path: "/w/a", New: "y", Create: true}, nil, "y"},
		{"delete", FileEdit{Path: "/w/a", Old: "x", Delete: true}, ptr("x"), ""},
		{"emptied", FileEdit{Path: "/w/a", Old: "x"}, ptr("x"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, old, new := ACPDiff(tt.fe)
			if path != tt.fe.Path || new != tt.wantNew {
				t.Errorf("path, new = %q, %q; want %q, %q", path, new, tt.fe.Path, tt.wantNew)
			}
			switch {
			case tt.wantOld == nil && old != nil:
				t.Errorf("old = %q, want nil", *old)
			case tt.wantOld != nil && (old == nil || *old != *tt.wantOld):
				t.Errorf("old = %v, want %q", old, *tt.wantOld)
			}
		})
	}
}

func ptr(s string) *string { return &s }
