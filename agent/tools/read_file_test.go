package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	long := strings.Repeat("x", 300) + "\n"
	f := newFixture(t, map[string]string{
		"small.txt":  "alpha\n\tbeta\ngamma",
		"crlf.txt":   "one\r\ntwo\r\n",
		"big.txt":    numbered(2500),
		"wide.txt":   strings.Repeat(long, 1200), // ~360 KiB: the byte cap bites first
		"empty.txt":  "",
		"bin.dat":    "PK\x03\x04\x00\x00binary",
		"latin1.txt": "caf\xe9 au lait, na\xefve\n",
		"dir/x.txt":  "x\n",
	})
	cases := []struct {
		name     string
		args     map[string]any
		isError  bool
		contains []string
		absent   []string
	}{
		{name: "numbers lines like cat -n",
			args:     map[string]any{"path": "small.txt"},
			contains: []string{"     1\talpha\n", "     2\t\tbeta\n", "     3\tgamma\n"},
			absent:   []string{"To read on"}},
		{name: "CRLF shown without carriage returns",
			args:     map[string]any{"path": "crlf.txt"},
			contains: []string{"     1\tone\n", "     2\ttwo\n"}, absent: []string{"\r"}},
		{name: "line cap with how to read on",
			args:     map[string]any{"path": "big.txt"},
			contains: []string{"  2000\tline 2000\n", "Showed lines 1-2000 of 2500", "offset=2001"},
			absent:   []string{"line 2001\n"}},
		{name: "offset and limit",
			args:     map[string]any{"path": "big.txt", "offset": 10, "limit": 3},
			contains: []string{"    10\tline 10\n", "    12\tline 12\n", "Showed lines 10-12 of 2500", "offset=13"},
			absent:   []string{"line 9\n", "line 13\n"}},
		{name: "offset reads to the end",
			args:     map[string]any{"path": "big.txt", "offset": 2400},
			contains: []string{"  2500\tline 2500\n"}, absent: []string{"To read on", "line 2399\n"}},
		{name: "byte cap",
			args:     map[string]any{"path": "wide.txt"},
			contains: []string{"To read on, call read_file with offset="}},
		{name: "offset past the end",
			args: map[string]any{"path": "small.txt", "offset": 9}, isError: true,
			contains: []string{"past the end", "3 lines"}},
		{name: "empty file", args: map[string]any{"path": "empty.txt"}, contains: []string{"empty"}},
		{name: "binary refused",
			args: map[string]any{"path": "bin.dat"}, isError: true, contains: []string{"binary"}},
		{name: "a few invalid bytes are still text",
			args: map[string]any{"path": "latin1.txt"}, contains: []string{"     1\tcaf\uFFFD au lait"}},
		{name: "missing file names the path",
			args: map[string]any{"path": "nope/missing.go"}, isError: true,
			contains: []string{"file not found", "nope/missing.go"}},
		{name: "directory",
			args: map[string]any{"path": "dir"}, isError: true, contains: []string{"directory", "list_files"}},
		{name: "bad arguments",
			args: map[string]any{"path": 12}, isError: true, contains: []string{`"path": expected string, got number 12`, "read_file takes these fields: path (required string), offset (integer), limit (integer)"}},
		{name: "negative offset",
			args: map[string]any{"path": "small.txt", "offset": -1}, isError: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.run(t, NewReadFile(), c.args)
			if res.IsError != c.isError {
				t.Fatalf("IsError = %v, want %v; output:\n%s", res.IsError, c.isError, res.Output)
			}
			for _, s := range c.contains {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%.600s", s, res.Output)
				}
			}
			for _, s := range c.absent {
				if strings.Contains(res.Output, s) {
					t.Errorf("output has %q", s)
				}
			}
			if !c.isError && (len(res.Touched) != 1 || res.Touched[0] != f.abs(c.args["path"].(string))) {
				t.Errorf("Touched = %v", res.Touched)
			}
		})
	}
}

func TestReadFileByteCapContinues(t *testing.T) {
	line := strings.Repeat("y", 1000)
	var b strings.Builder
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, "%04d%s\n", i+1, line)
	}
	f := newFixture(t, map[string]string{"w.txt": b.String()})
	res := f.run(t, NewReadFile(), map[string]any{"path": "w.txt"})
	if len(res.Output) > readMaxBytes+200 {
		t.Fatalf("output is %d bytes, cap %d", len(res.Output), readMaxBytes)
	}
	var shownTo, next int
	if _, err := fmt.Sscanf(res.Output[strings.Index(res.Output, "[Showed"):], "[Showed lines 1-%d of 600. To read on, call read_file with offset=%d.]", &shownTo, &next); err != nil {
		t.Fatalf("no continuation note: %v\n%s", err, res.Output[len(res.Output)-200:])
	}
	if next != shownTo+1 || shownTo >= 600 {
		t.Fatalf("shown to %d, next %d", shownTo, next)
	}
	// The next call starts exactly where the first stopped.
	res2 := f.run(t, NewReadFile(), map[string]any{"path": "w.txt", "offset": next})
	if !strings.HasPrefix(strings.TrimLeft(res2.Output, " "), fmt.Sprintf("%d\t%04d", next, next)) {
		t.Fatalf("second read starts with %.40q", res2.Output)
	}
}

func TestReadFileLongLineCut(t *testing.T) {
	f := newFixture(t, map[string]string{"min.js": strings.Repeat("é", 5000)})
	res := f.run(t, NewReadFile(), map[string]any{"path": "min.js"})
	if !strings.Contains(res.Output, "line cut, 8000 more bytes") {
		t.Fatalf("long line not cut:\n%.300s", res.Output)
	}
}

// The editor's unsaved buffer is what the model reads.
func TestReadFileSeesEditorBuffer(t *testing.T) {
	f := newFixture(t, map[string]string{"main.go": "on disk\n"})
	f.host.readFile = func(_ context.Context, path string) (string, error) {
		if path == f.abs("main.go") {
			return "unsaved buffer\n", nil
		}
		return "", fmt.Errorf("unexpected path %s", path)
	}
	res := f.run(t, NewReadFile(), map[string]any{"path": "main.go"})
	if !strings.Contains(res.Output, "unsaved buffer") {
		t.Fatalf("got %q", res.Output)
	}
}
