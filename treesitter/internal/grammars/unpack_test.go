package grammars

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// pack packs b as the generator does, cut into blocks of the sizes given.
func pack(t *testing.T, b []byte, sizes ...int) []byte {
	t.Helper()
	var out []byte
	for _, n := range sizes {
		block := make([]byte, lz4.CompressBlockBound(n))
		k, err := lz4.CompressBlockHC(b[:n], block, lz4.Level9, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b = b[n:]
		out = binary.AppendUvarint(out, uint64(k))
		out = append(out, block[:k]...)
	}
	return out
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
	if err := Unpack(pack(t, []byte("abcdefgh"), 3, 0, 5), []int{3, 0, 5}, table); err != nil {
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
		blocks []int // how data is cut into blocks
		sizes  []int // what the generator recorded
		arrays []int // what the C side has
		want   string
	}{
		{"C array of another size", "abcdefgh", []int{3, 5}, []int{3, 5}, []int{4, 5}, "the C array has 4 bytes"},
		{"block too short", "abcdefg", []int{3, 4}, []int{3, 5}, []int{3, 5}, "table 1: the packed block holds 4 bytes, not 5"},
		{"block too long", "abcdefgh", []int{4, 4}, []int{3, 5}, []int{3, 5}, "table 0"},
		{"stream too short", "abc", []int{3}, []int{3, 5}, []int{3, 5}, "table 1: the packed tables end early"},
		{"stream too long", "abcdefghi", []int{3, 5, 1}, []int{3, 5}, []int{3, 5}, "past the last table"},
		{"more C tables", "abcdefgh", []int{3, 5}, []int{3, 5}, []int{3, 5, 1}, "more than 2 tables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, table := arrays(tt.arrays...)
			err := Unpack(pack(t, []byte(tt.data), tt.blocks...), tt.sizes, table)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Unpack = %v, want an error saying %q", err, tt.want)
			}
		})
	}
	_, table := arrays(3)
	// A block of the right length whose copy reaches before its start.
	if err := Unpack([]byte{3, 0x00, 0x05, 0x00}, []int{3}, table); err == nil {
		t.Error("Unpack accepted a block that is not LZ4")
	}
}
