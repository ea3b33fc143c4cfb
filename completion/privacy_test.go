package completion

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExcluded(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(".gitignore", "*.log\nout/\n")
	write("sub/.gitignore", "private.go\n")
	names := []string{"AGENTS.md", "CLAUDE.md"}
	for name, want := range map[string]bool{
		"main.go": false, ".env.example": false, "sub/public.go": false,
		".env": true, ".env.local": true, "prod.env": true, "server.pem": true, "id_ed25519": true,
		"app.log": true, "out/gen.go": true, "sub/private.go": true,
		"AGENTS.md": true, "sub/CLAUDE.md": true, ".git/config": true, ".tandem/settings.json": true, ".vscode/tasks.json": true,
	} {
		if got := Excluded(root, filepath.Join(root, filepath.FromSlash(name)), names); got != want {
			t.Errorf("%s: excluded %v, want %v", name, got, want)
		}
	}
	if !Excluded(root, filepath.Join(t.TempDir(), "elsewhere.go"), names) {
		t.Error("a file outside the root is not excluded")
	}
}
