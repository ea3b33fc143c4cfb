package codeindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/treesitter"
)

// frame wraps a body as saveCache does, with a valid checksum, so decode
// has to catch what is wrong inside it.
func frame(body []byte) []byte {
	b := append([]byte(cacheMagic), body...)
	return binary.LittleEndian.AppendUint32(b, crcSum(body))
}

// header encodes a body header claiming files and total definitions.
func header(root string, files, total uint64) []byte {
	b := binary.AppendUvarint(nil, cacheVersion)
	b = appendString(b, root)
	b = binary.AppendUvarint(b, files)
	return binary.AppendUvarint(b, total)
}

func TestDecodeChecksCountsUnderAValidChecksum(t *testing.T) {
	const root = "/r"
	files := []*File{
		{Path: "a.go", Lang: "go", Defs: []treesitter.Definition{{Name: "A", Kind: treesitter.KindFunction, Start: 1, End: 2, Signature: "func A()"}}},
		{Path: "b.go", Lang: "go", Defs: []treesitter.Definition{{Name: "B", Kind: treesitter.KindType, Start: 3, End: 3, Signature: "type B int"}, {Name: "C", Kind: treesitter.KindConstant, Start: 5, End: 5, Signature: "const C = 1"}}},
	}
	var good bytes.Buffer
	if err := encodeBody(&good, root, files); err != nil {
		t.Fatal(err)
	}
	got, err := decodeCache(frame(good.Bytes()), root)
	if err != nil || len(got) != 2 || len(got["b.go"].Defs) != 2 || got["b.go"].Defs[1].Signature != "const C = 1" {
		t.Fatalf("round trip: %v %v", got, err)
	}
	// Appending to one file's definitions must not overwrite the next's.
	a := append(got["a.go"].Defs, treesitter.Definition{Name: "X"})
	if a[0].Name != "A" || got["b.go"].Defs[0].Name != "B" {
		t.Fatalf("append spilled into the neighbour: %v", got["b.go"].Defs)
	}

	records := good.Bytes()[len(header(root, 2, 3)):]
	for name, body := range map[string][]byte{
		"total too small": append(header(root, 2, 2), records...),
		"total too large": append(header(root, 2, 4), records...),
		"absurd total":    append(header(root, 2, 1<<40), records...),
		"absurd files":    append(header(root, 1<<40, 3), records...),
		"fewer files":     append(header(root, 1, 3), records...),
	} {
		if _, err := decodeCache(frame(body), root); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: err = %v, want errCorrupt", name, err)
		}
	}
}

func TestSaveRemovesTheOldCacheFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range oldCacheNames {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("v1"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := saveCache(dir, "/r", nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range oldCacheNames {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("old cache %s still there: %v", name, err)
		}
	}
	if _, err := loadCache(dir, "/r"); err != nil {
		t.Errorf("new cache unreadable: %v", err)
	}
}

func TestBigSlice(t *testing.T) {
	for _, n := range []int{0, 1, hugePageTestSize - 1, 3 * hugePageTestSize} {
		b := bigSlice[byte](n)
		if len(b) != n {
			t.Fatalf("len %d, want %d", len(b), n)
		}
		for i := range b {
			if b[i] != 0 {
				t.Fatalf("byte %d of %d not zero", i, n)
			}
		}
		if n > 0 {
			b[0], b[n-1] = 1, 2
		}
	}
	defs := bigSlice[treesitter.Definition](50000) // some 5 MB, holding pointers
	defs[len(defs)-1].Name = "last"
	if len(defs) != 50000 || defs[0].Name != "" || defs[49999].Name != "last" {
		t.Fatal("definition slab unusable")
	}
}

const hugePageTestSize = 2 << 20
