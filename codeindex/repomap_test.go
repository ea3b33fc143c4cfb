package codeindex

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// mapFixture is a small repository: core/store.go is used by two files,
// util/leaf.go by one (tools/extra.go), cli/main.go by none.
var mapFixture = map[string]string{
	"core/store.go":   "package core\n\ntype Store struct{ m map[string]string }\n\nfunc OpenStore() *Store { return &Store{} }\n\nfunc (s *Store) Lookup(k string) string { return s.m[k] }\n\nfunc unused() {}\n",
	"api/handler.go":  "package api\n\nimport \"example/core\"\n\nfunc Handle(s *core.Store) string { return s.Lookup(\"k\") }\n",
	"cli/main.go":     "package main\n\nimport (\n\t\"example/api\"\n\t\"example/core\"\n)\n\nfunc main() { s := core.OpenStore(); _ = s.Lookup(\"a\"); api.Handle(s) }\n",
	"util/leaf.go":    "package util\n\nfunc LeafHelper() int { return 1 }\n",
	"tools/extra.go":  "package tools\n\nimport \"example/util\"\n\nfunc Extra() int { return util.LeafHelper() }\n",
	"docs/readme.txt": "Store Handle LeafHelper\n",
}

// mapOrder returns the file paths of a rendered map, in order.
func mapOrder(m string) []string {
	var out []string
	for _, l := range strings.Split(m, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			out = append(out, l)
		}
	}
	return out
}

func before(t *testing.T, order []string, a, b string) {
	t.Helper()
	i, j := slices.Index(order, a), slices.Index(order, b)
	if i < 0 || j < 0 || i > j {
		t.Errorf("want %s before %s in %q", a, b, order)
	}
}

func TestMapRanksReferencedFilesFirst(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, mapFixture)
	ix := open(t, root, "")
	m, err := ix.Map(context.Background(), MapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	order := mapOrder(m)
	if order[0] != "core/store.go" {
		t.Errorf("most referenced file not first:\n%s", m)
	}
	before(t, order, "core/store.go", "util/leaf.go")
	before(t, order, "api/handler.go", "cli/main.go")
	// The store's definitions shown are the ones others use, not unused().
	if !strings.Contains(m, "func (s *Store) Lookup(k string) string") || strings.Contains(m, "func unused") {
		t.Errorf("store's definitions:\n%s", m)
	}

	focused, err := ix.Map(context.Background(), MapOptions{Focus: []string{"tools/extra.go"}})
	if err != nil {
		t.Fatal(err)
	}
	forder := mapOrder(focused)
	before(t, forder, "util/leaf.go", "core/store.go")
	before(t, forder, "tools/extra.go", "core/store.go")
	if slices.Equal(order, forder) {
		t.Errorf("focus did not change the order: %q", order)
	}
	// A focus outside the root is ignored, not an error.
	if _, err := ix.Map(context.Background(), MapOptions{Focus: []string{"/elsewhere/x.go"}}); err != nil {
		t.Error(err)
	}
}

func TestMapRespectsBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("pkg%d/f.go", i)] = fmt.Sprintf(
			"package p\n\nfunc Func%d(argument string, another int) error { return Func%d(argument, another) }\n\ntype Type%d struct{}\n",
			i, (i+1)%200, i)
	}
	root := t.TempDir()
	writeTree(t, root, files)
	ix := open(t, root, "")
	for _, tokens := range []int{30, 200, 1500} {
		m, err := ix.Map(context.Background(), MapOptions{Tokens: tokens})
		if err != nil {
			t.Fatal(err)
		}
		if len(m) > tokens*bytesPerToken || len(mapOrder(m)) == 0 {
			t.Errorf("budget %d tokens: %d bytes, %d files", tokens, len(m), len(mapOrder(m)))
		}
		// Most of the budget is used: the map is cut by the budget, not early.
		if len(m) < tokens*bytesPerToken*3/4 {
			t.Errorf("budget %d tokens: only %d bytes used", tokens, len(m))
		}
	}
	// The default applies when no budget is given.
	m, _ := ix.Map(context.Background(), MapOptions{})
	if len(m) > DefaultMapTokens*bytesPerToken || len(m) < DefaultMapTokens*bytesPerToken/2 {
		t.Errorf("default budget: %d bytes", len(m))
	}
}

func TestRefsSurviveTheCache(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	writeTree(t, root, mapFixture)
	cold, err := Open(context.Background(), root, Options{CacheDir: cache, Refs: true, cacheAfter: -1})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := cold.File("api/handler.go")
	if !want.HasRefs || !slices.Contains(want.Refs, "Lookup") || !slices.Contains(want.Refs, "Store") {
		t.Fatalf("refs = %q (has %v)", want.Refs, want.HasRefs)
	}
	warm := open(t, root, cache)
	got, _ := warm.File("api/handler.go")
	if !got.HasRefs || !slices.Equal(got.Refs, want.Refs) {
		t.Errorf("refs after the cache = %q, want %q", got.Refs, want.Refs)
	}
	a, _ := cold.Map(context.Background(), MapOptions{})
	b, _ := warm.Map(context.Background(), MapOptions{})
	if a != b {
		t.Errorf("maps differ after the cache:\n%s\n---\n%s", a, b)
	}
}

// An index opened for definitions only skips references; its first map
// parses them in, the same map an index with references renders, and the
// cache keeps them, so the next map parses nothing.
func TestMapFillsReferencesLazily(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	writeTree(t, root, mapFixture)
	full, err := Open(context.Background(), root, Options{Refs: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := full.Map(context.Background(), MapOptions{})

	defsOnly := open(t, root, cache)
	for _, f := range defsOnly.Files("") {
		if f.HasRefs || f.Refs != nil {
			t.Fatalf("%s: references extracted without being wanted: %q", f.Path, f.Refs)
		}
	}
	if f := open(t, root, cache).Files("")[0]; f.HasRefs {
		t.Fatalf("%s: the cache claims references it never had", f.Path)
	}
	got, err := defsOnly.Map(context.Background(), MapOptions{})
	if err != nil || got != want {
		t.Fatalf("lazy map (err %v):\n%s\n--- want:\n%s", err, got, want)
	}
	h, _ := defsOnly.File("api/handler.go")
	if !h.HasRefs || !slices.Contains(h.Refs, "Lookup") {
		t.Fatalf("refs after the map = %q", h.Refs)
	}
	// A file edited after the map gets its references at the next refresh.
	writeTree(t, root, map[string]string{"util/leaf.go": "package util\n\nfunc LeafHelper() int { return Other() }\n\nfunc Other() int { return 2 }\n"})
	if _, err := defsOnly.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l, _ := defsOnly.File("util/leaf.go"); !l.HasRefs || !slices.Contains(l.Refs, "Other") {
		t.Fatalf("refs after an edit = %q (has %v)", l.Refs, l.HasRefs)
	}
	warm := open(t, root, cache)
	for _, f := range warm.Files("") {
		if !f.HasRefs {
			t.Errorf("%s: references lost in the cache", f.Path)
		}
	}
}

func TestRenderMapEmpty(t *testing.T) {
	if m := RenderMap(nil, nil, 100); m != "" {
		t.Errorf("empty map = %q", m)
	}
}
