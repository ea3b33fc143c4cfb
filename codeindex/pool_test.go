package codeindex

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestPoolSharesOneIndexPerRoot(t *testing.T) {
	rootA, rootB := t.TempDir(), t.TempDir()
	writeTree(t, rootA, smallTree)
	writeTree(t, rootB, map[string]string{"b.go": "package b\n\nfunc B() {}\n"})
	p := NewPool(Options{CacheDir: t.TempDir(), cacheAfter: -1})
	ctx := context.Background()

	const sessions = 8
	got := make([]*Index, sessions)
	releases := make([]func(), sessions)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, release, err := p.Acquire(ctx, rootA)
			if err != nil {
				t.Error(err)
				return
			}
			// Concurrent readers while others refresh.
			ix.Search("circle", MatchFuzzy, 5)
			if _, err := ix.Refresh(ctx); err != nil {
				t.Error(err)
			}
			got[i], releases[i] = ix, release
		}()
	}
	wg.Wait()
	for i := 1; i < sessions; i++ {
		if got[i] != got[0] {
			t.Fatal("sessions on one root got different indexes")
		}
	}
	b, releaseB, err := p.Acquire(ctx, rootB)
	if err != nil {
		t.Fatal(err)
	}
	if b == got[0] || len(b.Files("")) != 1 {
		t.Error("another root shared an index")
	}
	releaseB()
	for _, r := range releases {
		r()
		r() // a second release is harmless
	}
	// Everyone released: the next Acquire builds afresh.
	again, release, err := p.Acquire(ctx, rootA)
	if err != nil {
		t.Fatal(err)
	}
	if again == got[0] {
		t.Error("released index was kept")
	}
	release()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Acquire(ctx, rootA); !errors.Is(err, ErrPoolClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
}

func TestPoolAcquireErrors(t *testing.T) {
	p := NewPool(Options{})
	defer p.Close()
	if _, _, err := p.Acquire(context.Background(), "/does/not/exist"); err == nil {
		t.Error("Acquire of a missing root succeeded")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.Acquire(ctx, t.TempDir()); err == nil {
		// The build may win the race with an already-cancelled wait; either
		// way the pool must stay usable.
		t.Log("build finished before the cancelled wait was noticed")
	}
	ix, release, err := p.Acquire(context.Background(), t.TempDir())
	if err != nil || ix == nil {
		t.Fatalf("pool unusable after a cancelled Acquire: %v", err)
	}
	release()
}
