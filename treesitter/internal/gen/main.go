// Command gen writes treesitter/internal/grammars: a copy of each tree-sitter
// grammar tandem uses, taken from the github.com/smacker/go-tree-sitter
// module pinned in go.mod, with the parse tables moved out of the C source
// into a compressed file the Go package embeds (../grammars/README.md).
//
// It runs from `go generate ./treesitter`, never during a build: it needs
// the module in the module cache and a C compiler, which it uses to dump
// the tables' bytes exactly as the C compiler lays them out. The machine
// running it must be little-endian; the grammars refuse to load elsewhere.
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// module is the Go module the grammars come from.
const module = "github.com/smacker/go-tree-sitter"

// grammar is one language to copy: its directory in the module and the
// package name tandem gives it.
type grammar struct{ dir, pkg string }

// grammars are the languages treesitter/registry.go registers.
var grammars = []grammar{
	{"bash", "bash"}, {"c", "c"}, {"cpp", "cpp"}, {"csharp", "csharp"}, {"golang", "golang"},
	{"java", "java"}, {"javascript", "javascript"}, {"kotlin", "kotlin"}, {"lua", "lua"},
	{"php", "php"}, {"python", "python"}, {"ruby", "ruby"}, {"rust", "rust"}, {"scala", "scala"},
	{"swift", "swift"}, {"typescript/tsx", "tsx"}, {"typescript/typescript", "typescript"},
}

func main() {
	out := flag.String("out", "internal/grammars", "directory to write the grammars to")
	only := flag.String("only", "", "comma-separated package names to generate (default all)")
	flag.Parse()
	if err := run(context.Background(), *out, strings.Split(*only, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run generates the grammars named in only (all when only is empty) under out.
func run(ctx context.Context, out string, only []string) error {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return errors.New("the tables are stored little-endian; run the generator on a little-endian machine")
	}
	src, err := moduleSource(ctx)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, o := range only {
		if o != "" {
			want[o] = true
		}
	}
	if err := writeShared(src, out); err != nil {
		return err
	}
	for _, g := range grammars {
		if len(want) > 0 && !want[g.pkg] {
			continue
		}
		if err := generate(ctx, src, g, filepath.Join(out, g.pkg)); err != nil {
			return fmt.Errorf("%s: %w", g.pkg, err)
		}
	}
	return nil
}

// source is the module's directory in the module cache and its version.
type source struct{ dir, version string }

func moduleSource(ctx context.Context) (source, error) {
	b, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", module).Output()
	if err != nil {
		return source{}, fmt.Errorf("finding %s (is it in the module cache?): %w", module, err)
	}
	dir, version, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !ok || dir == "" {
		return source{}, fmt.Errorf("go list -m %s printed %q", module, b)
	}
	return source{dir, version}, nil
}
