package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A Go program built for Windows runs under Wine, standard input and
// output passing through.
func TestWineRunsGoProgram(t *testing.T) {
	wine, env := Wine(t)
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() { b, _ := io.ReadAll(os.Stdin); os.Stdout.Write(append([]byte(\"got \"), b...)) }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "hello.exe")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(wine, exe)
	cmd.Env = env
	cmd.Stdin = strings.NewReader("hello")
	out, err := cmd.Output()
	if err != nil || string(out) != "got hello" {
		t.Fatalf("under wine: %q, %v", out, err)
	}
}
