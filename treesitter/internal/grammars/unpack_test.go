package grammars

import (
	"bytes"
	"compress/flate"
	"strings"
	"testing"
)

func pack(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// arrays stands in for a grammar's C tables.
func arrays(sizes ...int) ([][]byte, func(int) []byte) {
	var a [][]byte
	for _, n := range sizes {
		a = append(a, make([]byte, n))
	}
	return a, func(i int) []byte {
		if i >= len(a) {
			return nil
		}
		return a[i]
	}
}

func TestUnpackFillsTables(t *testing.T) {
	a, table := arrays(3, 0, 5)
	if err := Unpack(pack(t, []byte("abcdefgh")), []int{3, 0, 5}, table); err != nil {
		t.Fatal(err)
	}
	if string(a[0]) != "abc" || string(a[2]) != "defgh" {
		t.Errorf("tables hold %q and %q", a[0], a[2])
	}
}

func TestUnpackRefusesMismatch(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		sizes  []int // what the generator recorded
		arrays []int // what the C side has
		want   string
	}{
		{"C array of another size", "abcdefgh", []int{3, 5}, []int{4, 5}, "the C array has 4 bytes"},
		{"stream too short", "abcdefg", []int{3, 5}, []int{3, 5}, "table 1"},
		{"stream too long", "abcdefghi", []int{3, 5}, []int{3, 5}, "past the last table"},
		{"more C tables", "abcdefgh", []int{3, 5}, []int{3, 5, 1}, "more than 2 tables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, table := arrays(tt.arrays...)
			err := Unpack(pack(t, []byte(tt.data)), tt.sizes, table)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Unpack = %v, want an error saying %q", err, tt.want)
			}
		})
	}
	_, table := arrays(3)
	if err := Unpack([]byte("not deflate"), []int{3}, table); err == nil {
		t.Error("Unpack accepted a stream that is not deflate")
	}
}
