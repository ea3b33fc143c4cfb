package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/codeindex"
)

var mapTree = map[string]string{
	"core/store.go":  "package core\n\ntype Store struct{}\n\nfunc (s *Store) Lookup(k string) string { return k }\n",
	"api/handler.go": "package api\n\nfunc Handle(s *core.Store) string { return s.Lookup(\"k\") }\n",
	"cli/main.go":    "package main\n\nfunc main() { api.Handle(&core.Store{}) }\n",
	"util/leaf.go":   "package util\n\nfunc LeafHelper() int { return 1 }\n",
	"tools/extra.go": "package tools\n\nfunc Extra() int { return util.LeafHelper() }\n",
}

func TestRepoMap(t *testing.T) {
	for name, withIndex := range map[string]bool{"transient": false, "session index": true} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, mapTree)
			if withIndex {
				ix, err := codeindex.Open(context.Background(), f.root, codeindex.Options{})
				if err != nil {
					t.Fatal(err)
				}
				f.env.Index = ix
			}
			res := f.run(t, NewRepoMap(), map[string]any{})
			if res.IsError || !strings.HasPrefix(res.Output, RepoMapHeader+"\ncore/store.go\n") {
				t.Fatalf("output:\n%s", res.Output)
			}
			if !strings.Contains(res.Output, "5 | func (s *Store) Lookup(k string) string") {
				t.Errorf("definition line missing:\n%s", res.Output)
			}
			res = f.run(t, NewRepoMap(), map[string]any{"focus": []string{"tools/extra.go"}})
			if i, j := strings.Index(res.Output, "util/leaf.go"), strings.Index(res.Output, "core/store.go"); res.IsError || i < 0 || i > j {
				t.Errorf("focus did not put the used leaf first:\n%s", res.Output)
			}
		})
	}
}

func TestRepoMapBadFocus(t *testing.T) {
	f := newFixture(t, mapTree)
	res := f.run(t, NewRepoMap(), map[string]any{"focus": []string{"../outside"}})
	if !res.IsError {
		t.Fatalf("focus outside the workspace accepted:\n%s", res.Output)
	}
	res = newFixture(t, map[string]string{"README.md": "# none\n"}).run(t, NewRepoMap(), map[string]any{})
	if res.IsError || !strings.Contains(res.Output, "No definitions found") {
		t.Errorf("empty workspace: %+v", res)
	}
}
