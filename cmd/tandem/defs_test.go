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
	if entries, _ := os.ReadDir(filepath.Join(home, "index")); len(entries) != 1 {
		t.Errorf("cache not written under TANDEM_HOME/index: %v", entries)
	}

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
