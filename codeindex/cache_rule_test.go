package codeindex

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// A tree that indexes in less time than its cache is worth gets no cache
// file, however often it is flushed; one that took longer gets it, which
// shows what indexing cost is recorded.
func TestFirstCacheWrittenOnlyWhenItPays(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		after time.Duration
		want  bool
	}{
		{time.Hour, false}, // no tree this small takes an hour
		{time.Nanosecond, true},
	} {
		root, cache := t.TempDir(), t.TempDir()
		writeTree(t, root, smallTree)
		ix, err := Open(ctx, root, Options{CacheDir: cache, cacheAfter: tt.after})
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.Flush(); err != nil {
			t.Fatal(err)
		}
		_, err = os.Stat(cacheFile(t, cache, root))
		if got := err == nil; got != tt.want || (err != nil && !errors.Is(err, os.ErrNotExist)) {
			t.Errorf("worth %v: cache written %v (%v), want %v", tt.after, got, err, tt.want)
		}
	}
}

// A root that has a cache file keeps it current, however cheap its tree.
func TestExistingCacheKeptCurrent(t *testing.T) {
	ctx := context.Background()
	root, cache := t.TempDir(), t.TempDir()
	writeTree(t, root, smallTree)
	open(t, root, cache) // writes the cache whatever it cost
	path := cacheFile(t, cache, root)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatalf("cache not written: %v", err)
	}
	ix, err := Open(ctx, root, Options{CacheDir: cache, cacheAfter: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"shapes/shapes.go": "package shapes\n\nfunc Square() {}\n"})
	if st, err := ix.Refresh(ctx); err != nil || st.Parsed != 1 {
		t.Fatalf("refresh: %+v, %v", st, err)
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.ModTime().After(old) {
		t.Fatalf("the cache was not rewritten after a change: %v", err)
	}
	files, err := loadCache(cacheDir(cache, ix.Root()), ix.Root())
	if err != nil || files["shapes/shapes.go"] == nil || files["shapes/shapes.go"].Defs[0].Name != "Square" {
		t.Errorf("the rewritten cache does not hold the change: %v", err)
	}
}
