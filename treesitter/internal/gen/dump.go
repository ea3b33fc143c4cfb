package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// dumped is what the C compiler made of a grammar's tables.
type dumped struct {
	sizes  []int  // each table's size in bytes
	counts []int  // each table's first dimension
	bytes  []byte // the tables' bytes, one after the other
}

// dump compiles a program that includes the grammar's original parser.c
// and writes each table's size and bytes, so the stored bytes are the C
// compiler's own layout of the initializers rather than a re-parse of them.
func dump(ctx context.Context, langDir string, ts []table) (dumped, error) {
	tmp, err := os.MkdirTemp("", "tandem-grammar-dump")
	if err != nil {
		return dumped{}, err
	}
	defer os.RemoveAll(tmp)

	var prog strings.Builder
	fmt.Fprintf(&prog, "#include %q\n#include <stdio.h>\n\n", filepath.Join(langDir, "parser.c"))
	prog.WriteString("int main(int argc, char **argv) {\n  FILE *f = fopen(argv[1], \"wb\");\n  if (!f) return 1;\n")
	for _, t := range ts {
		fmt.Fprintf(&prog, "  printf(\"%%zu %%zu\\n\", sizeof(%s), sizeof(%s[0]));\n", t.name, t.name)
		fmt.Fprintf(&prog, "  if (fwrite(%s, 1, sizeof(%s), f) != sizeof(%s)) return 1;\n", t.name, t.name, t.name)
	}
	prog.WriteString("  return fclose(f) != 0;\n}\n")
	src, exe, raw := filepath.Join(tmp, "dump.c"), filepath.Join(tmp, "dump"), filepath.Join(tmp, "tables.bin")
	if err := os.WriteFile(src, []byte(prog.String()), 0o600); err != nil {
		return dumped{}, err
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	// The program never calls tree_sitter_<lang>(), so the external scanner
	// functions its language struct points to may stay unresolved.
	build := exec.CommandContext(ctx, cc, "-O0", "-w", "-I", langDir, "-o", exe, src,
		"-Wl,--unresolved-symbols=ignore-all")
	if msg, err := build.CombinedOutput(); err != nil {
		return dumped{}, fmt.Errorf("compiling the table dumper: %w\n%s", err, msg)
	}
	out, err := exec.CommandContext(ctx, exe, raw).Output()
	if err != nil {
		return dumped{}, fmt.Errorf("running the table dumper: %w", err)
	}
	var d dumped
	if d.bytes, err = os.ReadFile(raw); err != nil {
		return dumped{}, err
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	total := 0
	for sc.Scan() {
		var size, elem int
		if _, err := fmt.Sscanf(sc.Text(), "%d %d", &size, &elem); err != nil || elem == 0 {
			return dumped{}, fmt.Errorf("table dumper printed %q", sc.Text())
		}
		d.sizes = append(d.sizes, size)
		d.counts = append(d.counts, size/elem)
		total += size
	}
	if len(d.sizes) != len(ts) || total != len(d.bytes) {
		return dumped{}, fmt.Errorf("table dumper wrote %d sizes and %d bytes for %d tables", len(d.sizes), len(d.bytes), len(ts))
	}
	return d, nil
}
