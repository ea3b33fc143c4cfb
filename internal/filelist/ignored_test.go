package filelist

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIgnored(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "*.log\n/out/\n!keep.log\n")
	write("a/.gitignore", "secret.txt\n")
	write(".git/info/exclude", "local-only\n")
	for rel, want := range map[string]bool{
		"main.go": false, "x.log": true, "keep.log": false, "a/b/x.log": true,
		"out/gen.go": true, "a/out/gen.go": false, "a/secret.txt": true, "secret.txt": false,
		"local-only": true, "a/local-only": true,
	} {
		if got := Ignored(root, rel); got != want {
			t.Errorf("%s: ignored %v, want %v", rel, got, want)
		}
	}
}
