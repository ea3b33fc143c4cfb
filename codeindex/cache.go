package codeindex

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/tandemhq/tandem/internal/atomicfile"
	"github.com/tandemhq/tandem/treesitter"
)

// The cache is one file per root: a magic line carrying the format version,
// a body of length-prefixed records, and a CRC-32 (IEEE) of the body. A file whose
// magic, version, root or checksum does not match is ignored and rebuilt.
const (
	cacheMagic   = "tandem-codeindex\x00"
	cacheVersion = 5
	cacheName    = "defs.v5"
)

// oldCacheNames are earlier versions' files (v2 had no references, v3 no
// flag for files parsed without them, v4 a CRC-32C), removed when this
// version is written.
var oldCacheNames = []string{"defs.v2", "defs.v3", "defs.v4"}

// crcSum is the body's checksum: CRC-32 with the IEEE polynomial, which
// the standard library computes with the CPU's carry-less multiply (amd64)
// or CRC instructions (arm64) after a few microseconds of set-up; CRC-32C
// (v4) first built its tables, a quarter of a millisecond of every fresh
// process's first index.
func crcSum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// minDefBytes is the smallest encoding of a definition: nine varints;
// minFileBytes that of a file: eight varints and the 16-byte hash;
// minRefBytes that of a reference: its length. Counts are checked against
// them before anything is allocated.
const (
	minDefBytes  = 9
	minFileBytes = 8 + 16
	minRefBytes  = 1
)

// maxCache bounds the cache file read into memory; the Go tree's is 16 MB.
const maxCache = 1 << 30

// errCorrupt marks a cache that cannot be trusted.
var errCorrupt = errors.New("code index cache is corrupt")

// cacheDir is where root's cache lives under base ($TANDEM_HOME/index).
func cacheDir(base, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, hex.EncodeToString(sum[:8]))
}

// encodeBody writes files (in the order given) to w; the caller frames it
// with the magic and checksum. It encodes one file at a time into a small
// buffer: the whole body of a large tree is tens of megabytes that need not
// be held at once.
func encodeBody(w io.Writer, root string, files []*File) error {
	var b []byte
	b = binary.AppendUvarint(b, cacheVersion)
	b = appendString(b, root)
	b = binary.AppendUvarint(b, uint64(len(files)))
	ndefs := 0
	for _, f := range files {
		ndefs += len(f.Defs)
	}
	b = binary.AppendUvarint(b, uint64(ndefs)) // lets a reader allocate them at once
	nrefs := 0
	for _, f := range files {
		if f.HasRefs {
			nrefs += len(f.Refs)
		}
	}
	b = binary.AppendUvarint(b, uint64(nrefs))
	for _, f := range files {
		b = appendString(b, f.Path)
		b = appendString(b, f.Lang)
		b = binary.AppendVarint(b, f.Size)
		b = binary.AppendVarint(b, f.ModTime)
		b = append(b, f.Hash[:]...)
		b = binary.AppendUvarint(b, uint64(f.Lines))
		b = appendString(b, f.Err)
		b = binary.AppendUvarint(b, uint64(len(f.Defs)))
		for _, d := range f.Defs {
			b = appendString(b, d.Name)
			b = appendString(b, string(d.Kind))
			b = binary.AppendUvarint(b, uint64(d.Start))
			b = binary.AppendUvarint(b, uint64(d.End-d.Start))
			b = appendString(b, d.Signature)
			b = appendString(b, d.Parent)
			b = binary.AppendUvarint(b, uint64(d.Depth))
			b = binary.AppendUvarint(b, uint64(d.Group))
			b = binary.AppendUvarint(b, uint64(d.GroupEnd))
		}
		// 0: references never extracted; n+1: n references follow.
		if !f.HasRefs {
			b = append(b, 0)
		} else {
			b = binary.AppendUvarint(b, uint64(len(f.Refs))+1)
			for _, r := range f.Refs {
				b = appendString(b, r)
			}
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	_, err := w.Write(b)
	return err
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decodeCache reads what saveCache wrote for root. It takes ownership of
// data: every string it returns points into it (one allocation for the
// whole cache instead of one per name), so data must never change afterwards.
func decodeCache(data []byte, root string) (map[string]*File, error) {
	if len(data) < len(cacheMagic)+4 || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, fmt.Errorf("%w: bad header", errCorrupt)
	}
	body := data[len(cacheMagic) : len(data)-4]
	if crcSum(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	r := reader{s: unsafe.String(unsafe.SliceData(body), len(body))}
	if v := r.uvarint(); v != cacheVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", errCorrupt, v, cacheVersion)
	}
	if got := r.string(); got != root {
		return nil, fmt.Errorf("%w: written for root %q", errCorrupt, got)
	}
	n := r.uvarint()
	if n > uint64(len(body))/minFileBytes {
		return nil, fmt.Errorf("%w: file count", errCorrupt)
	}
	total := r.uvarint()
	if total > uint64(len(body))/minDefBytes {
		return nil, fmt.Errorf("%w: definition total", errCorrupt)
	}
	totalRefs := r.uvarint()
	if totalRefs > uint64(len(body))/minRefBytes {
		return nil, fmt.Errorf("%w: reference total", errCorrupt)
	}
	refSlab := bigSlice[string](int(totalRefs))
	// Files and definitions come from two allocations, not one per file:
	// on a large tree that is most of the time a warm start takes.
	slab := bigSlice[treesitter.Definition](int(total))
	fileSlab := make([]File, n)
	kinds := make(map[string]treesitter.Kind)
	files := make(map[string]*File, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		f := &fileSlab[i]
		*f = File{Path: r.string(), Lang: r.string(), Size: r.varint(), ModTime: r.varint()}
		copy(f.Hash[:], r.raw(len(f.Hash)))
		f.Lines = int(r.uvarint())
		f.Err = r.string()
		nd := r.uvarint()
		if nd > uint64(len(slab)) {
			return nil, fmt.Errorf("%w: definition count", errCorrupt)
		}
		// The full slice expression keeps an append to one file's
		// definitions from writing over the next file's.
		f.Defs = slab[:nd:nd]
		slab = slab[nd:]
		for j := range f.Defs {
			d := &f.Defs[j]
			d.Name = r.string()
			k := r.string()
			kind, ok := kinds[k]
			if !ok {
				kind = treesitter.Kind(k)
				kinds[k] = kind
			}
			d.Kind = kind
			d.Start = int(r.uvarint())
			d.End = d.Start + int(r.uvarint())
			d.Signature = r.string()
			d.Parent = r.string()
			d.Depth = int(r.uvarint())
			d.Group = int(r.uvarint())
			d.GroupEnd = int(r.uvarint())
		}
		nr := r.uvarint()
		if f.HasRefs = nr > 0; nr > 0 {
			nr--
		}
		if nr > uint64(len(refSlab)) {
			return nil, fmt.Errorf("%w: reference count", errCorrupt)
		}
		f.Refs = refSlab[:nr:nr]
		refSlab = refSlab[nr:]
		for j := range f.Refs {
			f.Refs[j] = r.string()
		}
		files[f.Path] = f
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(slab) != 0 || len(refSlab) != 0 {
		return nil, fmt.Errorf("%w: definition total", errCorrupt)
	}
	if r.off != len(r.s) {
		return nil, fmt.Errorf("%w: trailing bytes", errCorrupt)
	}
	return files, nil
}

// reader decodes the body; the first error sticks and later reads return zero values.
type reader struct {
	s   string
	off int
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w: truncated record at byte %d", errCorrupt, r.off)
	}
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	var shift uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if r.off >= len(r.s) {
			break
		}
		c := r.s[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
		shift += 7
	}
	r.fail()
	return 0
}

func (r *reader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (r *reader) string() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.s)-r.off) {
		r.fail()
		return ""
	}
	s := r.s[r.off : r.off+int(n)]
	r.off += int(n)
	return s
}

func (r *reader) raw(n int) string {
	if r.err != nil || n > len(r.s)-r.off {
		r.fail()
		return ""
	}
	s := r.s[r.off : r.off+n]
	r.off += n
	return s
}

// loadCache returns the cached files of root, or nil with the reason the
// cache was not usable (missing, corrupt, another version).
func loadCache(dir, root string) (map[string]*File, error) {
	f, err := os.Open(filepath.Join(dir, cacheName))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > maxCache {
		return nil, fmt.Errorf("%w: %d bytes", errCorrupt, st.Size())
	}
	data := bigSlice[byte](int(st.Size()))
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading the code index cache: %w", err)
	}
	return decodeCache(data, root)
}

// saveCache writes the cache through a temporary file and a rename, not
// synced: a crash may leave the old cache, the new one or a torn file,
// which decodeCache's checksum refuses and the next Open rebuilds; the
// first request of a session on a fresh tree waits for this write (its
// repository map needs the index), and an fsync took milliseconds of it.
func saveCache(dir, root string, files []*File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the code index cache directory: %w", err)
	}
	err := atomicfile.WriteCache(filepath.Join(dir, cacheName), 0o600, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<16)
		w.WriteString(cacheMagic)
		crc := crc32.NewIEEE()
		if err := encodeBody(io.MultiWriter(w, crc), root, files); err != nil {
			return err
		}
		if _, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32())); err != nil {
			return err
		}
		return w.Flush()
	})
	if err != nil {
		return fmt.Errorf("writing the code index cache: %w", err)
	}
	for _, name := range oldCacheNames {
		os.Remove(filepath.Join(dir, name)) // best effort: it is only disk space
	}
	return nil
}
