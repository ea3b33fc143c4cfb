package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// README's build line and the one tests use are the same.
func TestBuildFlagsMatchREADME(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("README's build line is the Linux one")
	}
	b, err := os.ReadFile(filepath.Join(RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"go", "build"}
	for _, f := range BuildFlags() {
		if strings.Contains(f, " ") {
			f = "'" + f + "'"
		}
		words = append(words, f)
	}
	line := strings.Join(append(words, "-o", "tandem", "./cmd/tandem"), " ")
	if !strings.Contains(string(b), "\n"+line+"\n") {
		t.Errorf("README.md has no line %q", line)
	}
}
