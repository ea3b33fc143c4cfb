package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runMain(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "TANDEM_HOME" {
			return home
		}
		return ""
	}}
	code = m.Run(context.Background(), args)
	return out.String(), errb.String(), code
}

func TestDefs(t *testing.T) {
	home, tree := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(tree, "pkg"), 0o755)
	os.WriteFile(filepath.Join(tree, "pkg", "a.go"), []byte("package pkg\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "b.py"), []byte("class B:\n    def m(self):\n        pass\n"), 0o644)

	out, errOut, code := runMain(t, home, "defs", tree)
	want := "# b.py (3 lines, 2 defs)\n1-3 | class B:\n2-3 |   def m(self):\n\n# pkg/a.go (3 lines, 1 defs)\n3 | func A() {}\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
	// Whether a tree this small gets a cache file under TANDEM_HOME/index
	// is codeindex's rule (TestFirstCacheWrittenOnlyWhenItPays): it takes
	// less to index again than to write.

	file := filepath.Join(tree, "pkg", "a.go")
	out, _, code = runMain(t, home, "defs", "--json", file)
	var got []struct {
		Path string
		Defs []struct {
			Name  string
			Kind  string
			Start int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("--json: %v (exit %d): %s", err, code, out)
	}
	if len(got) != 1 || len(got[0].Defs) != 1 || got[0].Defs[0].Name != "A" || got[0].Defs[0].Kind != "function" || got[0].Defs[0].Start != 3 {
		t.Errorf("--json = %+v", got)
	}

	_, errOut, code = runMain(t, home, "defs", filepath.Join(tree, "missing"), file)
	if code != 1 || !strings.Contains(errOut, "missing") {
		t.Errorf("missing path: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := runMain(t, home, "defs"); code != 2 {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
	if _, errOut, code := runMain(t, home, "defs", "--help"); code != 0 || !strings.Contains(errOut, "--json") && !strings.Contains(errOut, "-json") ||
		!strings.Contains(errOut, "node_modules, vendor, target, dist, build") {
		t.Errorf("--help: exit %d, %q (want the flags and the skipped directories)", code, errOut)
	}
}

func TestMap(t *testing.T) {
	home, tree := t.TempDir(), t.TempDir()
	files := map[string]string{
		"core/store.go":  "package core\n\ntype Store struct{}\n\nfunc (s *Store) Lookup(k string) string { return k }\n",
		"api/handler.go": "package api\n\nfunc Handle(s *core.Store) string { return s.Lookup(\"k\") }\n",
		"util/leaf.go":   "package util\n\nfunc LeafHelper() int { return 1 }\n",
		"tools/extra.go": "package tools\n\nfunc Extra() int { return util.LeafHelper() }\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(tree, p)), 0o755)
		os.WriteFile(filepath.Join(tree, p), []byte(c), 0o644)
	}
	out, errOut, code := runMain(t, home, "map", tree)
	want := "core/store.go\n  3 | type Store struct{}\n    5 | func (s *Store) Lookup(k string) string { return k }\n"
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Fatalf("exit %d, stdout:\n%s\nwant a start of:\n%s\nstderr: %s", code, out, want, errOut)
	}
	out, _, code = runMain(t, home, "map", "--focus", "tools/extra.go", tree)
	if code != 0 || !strings.HasPrefix(out, "util/leaf.go\n") && !strings.HasPrefix(out, "tools/extra.go\n") {
		t.Errorf("focused map:\n%s", out)
	}
	if i, j := strings.Index(out, "util/leaf.go"), strings.Index(out, "core/store.go"); i < 0 || i > j {
		t.Errorf("focus did not rank the leaf above the store:\n%s", out)
	}
	out, _, _ = runMain(t, home, "map", "--tokens", "10", tree)
	if len(out) > 40 || out == "" {
		t.Errorf("10-token map is %d bytes:\n%s", len(out), out)
	}
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"repoMap":{"tokens":-1}}`), 0o644)
	if _, errOut, code := runMain(t, home, "map", tree); code == 0 || !strings.Contains(errOut, "repoMap.tokens") {
		t.Errorf("negative budget: exit %d, stderr %s", code, errOut)
	}
	if _, errOut, _ := runMain(t, home, "map", "--help"); !strings.Contains(errOut, "example:\n  tandem map") {
		t.Errorf("help lacks an example: %s", errOut)
	}
}
