//go:build unix

package instructions

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// tree describes files to create under a temp directory. Keys are
// slash-separated relative paths. Values:
//
//	"dir:"          an empty directory
//	"link:<target>" a symlink to target (relative targets stay relative)
//	"fifo:"         a named pipe
//	anything else   a regular file with that content
type tree map[string]string

func build(t testing.TB, base string, tr tree) {
	t.Helper()
	for rel, v := range tr {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case v == "dir:":
			err = os.MkdirAll(p, 0o755)
		case strings.HasPrefix(v, "link:"):
			err = os.Symlink(filepath.FromSlash(strings.TrimPrefix(v, "link:")), p)
		case v == "fifo:":
			err = syscall.Mkfifo(p, 0o644)
		default:
			err = os.WriteFile(p, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// workspace makes a temp dir holding home/ and the given tree, returning
// the base directory and a Config whose Home is base/home.
func workspace(t testing.TB, tr tree) (string, Config) {
	t.Helper()
	base := t.TempDir()
	build(t, base, tr)
	home := filepath.Join(base, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	return base, DefaultConfig(home)
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// paths lists "action path" for each change, the shape most tests assert.
func paths(b *Batch) []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, c := range b.Meta.Changes {
		out = append(out, string(c.Action)+" "+c.Path)
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// roundTrip passes metas through JSON, as the session log does.
func roundTrip(t testing.TB, metas ...Meta) []Meta {
	t.Helper()
	data, err := json.Marshal(metas)
	if err != nil {
		t.Fatal(err)
	}
	var out []Meta
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// hookFS wraps the real filesystem so tests can provoke failures that root
// privileges would otherwise hide (chmod 000 does not stop root): an error
// from Open, a file that changes between stat and read, a stat that lies
// about the size, and a count of bytes actually read.
type hookFS struct {
	mu        sync.Mutex
	statSize  map[string]int64 // reported size override
	openErr   map[string]error
	afterStat map[string]func() // run once, right after a successful stat
	bytesRead map[string]int64
	stats     int
	onStat    func(n int) // called with the running stat count
}

func newHookFS() *hookFS {
	return &hookFS{statSize: map[string]int64{}, openErr: map[string]error{},
		afterStat: map[string]func(){}, bytesRead: map[string]int64{}}
}

type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (s sizedInfo) Size() int64 { return s.size }

func (h *hookFS) Stat(name string) (fs.FileInfo, error)  { return h.stat(name, os.Stat) }
func (h *hookFS) Lstat(name string) (fs.FileInfo, error) { return h.stat(name, os.Lstat) }

// stat counts every call and applies the hooks to both kinds of stat.
func (h *hookFS) stat(name string, statFn func(string) (fs.FileInfo, error)) (fs.FileInfo, error) {
	h.mu.Lock()
	h.stats++
	n, hook := h.stats, h.onStat
	h.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	fi, err := statFn(name)
	if err != nil {
		return fi, err
	}
	h.mu.Lock()
	after := h.afterStat[name]
	delete(h.afterStat, name)
	size, lie := h.statSize[name]
	h.mu.Unlock()
	if after != nil {
		after()
	}
	if lie {
		return sizedInfo{fi, size}, nil
	}
	return fi, nil
}

func (h *hookFS) Open(name string) (openFile, error) {
	h.mu.Lock()
	err := h.openErr[name]
	size, lie := h.statSize[name]
	h.mu.Unlock()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, h: h, name: name, lie: lie, size: size}, nil
}

type countingFile struct {
	*os.File
	h    *hookFS
	name string
	lie  bool
	size int64
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.File.Read(p)
	c.h.mu.Lock()
	c.h.bytesRead[c.name] += int64(n)
	c.h.mu.Unlock()
	return n, err
}

func (c *countingFile) Stat() (fs.FileInfo, error) {
	fi, err := c.File.Stat()
	if err == nil && c.lie {
		return sizedInfo{fi, c.size}, nil
	}
	return fi, err
}

var bg = context.Background()

var errCanceled = context.Canceled

func contextWithCancel() (context.Context, context.CancelFunc) { return context.WithCancel(bg) }
