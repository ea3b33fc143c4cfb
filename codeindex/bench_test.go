package codeindex

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// goSrc is a large real tree to measure against: the Go toolchain's source.
func goSrc(b *testing.B) string {
	dir := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("GOROOT/src not available")
	}
	return dir
}

// BenchmarkOpenWarm opens an index whose cache is up to date and lists it.
func BenchmarkOpenWarm(b *testing.B) {
	root := goSrc(b)
	opts := Options{CacheDir: b.TempDir(), cacheAfter: -1}
	if _, err := Open(context.Background(), root, opts); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		ix, err := Open(context.Background(), root, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteListing(io.Discard, ix.Files(""), ListOptions{MaxDepth: -1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefresh measures an in-memory refresh of an open index with
// nothing changed (the goal is under 50 ms on this tree).
func BenchmarkRefresh(b *testing.B) {
	ix, err := Open(context.Background(), goSrc(b), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := ix.Refresh(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListFile lists one typical file through the index.
func BenchmarkListFile(b *testing.B) {
	root := goSrc(b)
	ix, err := Open(context.Background(), filepath.Join(root, "net", "http"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		f, err := ix.Lookup(context.Background(), "request.go")
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteListing(io.Discard, []*File{f}, ListOptions{MaxDepth: -1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMapCold indexes the tree from nothing (no cache) and renders
// its repository map: what `tandem map` costs the first time.
func BenchmarkMapCold(b *testing.B) {
	root := goSrc(b)
	for b.Loop() {
		ix, err := Open(context.Background(), root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if m, err := ix.Map(context.Background(), MapOptions{}); err != nil || m == "" {
			b.Fatal(err, "empty map")
		}
	}
}

// BenchmarkMapWarm opens an index whose cache is up to date and renders
// the map: the graph is built anew each time, as in a new process.
func BenchmarkMapWarm(b *testing.B) {
	root := goSrc(b)
	opts := Options{CacheDir: b.TempDir(), cacheAfter: -1}
	if _, err := Open(context.Background(), root, opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ix, err := Open(context.Background(), root, opts)
		if err != nil {
			b.Fatal(err)
		}
		if m, err := ix.Map(context.Background(), MapOptions{}); err != nil || m == "" {
			b.Fatal(err, "empty map")
		}
	}
}

// BenchmarkMapFocus re-ranks an open index toward one file: the cost of a
// repo_map call in a session whose index is built.
func BenchmarkMapFocus(b *testing.B) {
	ix, err := Open(context.Background(), goSrc(b), Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ix.Map(context.Background(), MapOptions{Focus: []string{"net/http/server.go"}}); err != nil {
			b.Fatal(err)
		}
	}
}
