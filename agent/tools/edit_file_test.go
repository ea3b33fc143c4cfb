package tools

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
)

const goSource = `package main

import "fmt"

func main() {
	fmt.Println("hello")
	if true {
		fmt.Println("hello")
	}
}

func other() {
	x := 1
	y := 2
}
`

func TestEditFile(t *testing.T) {
	cases := []struct {
		name     string
		file     string
		args     map[string]any
		isError  bool
		want     string   // file content afterwards ("" = unchanged)
		contains []string // in the output
	}{
		{name: "unique exact match",
			file: goSource,
			args: map[string]any{"old_string": "import \"fmt\"", "new_string": "import \"os\""},
			want: strings.Replace(goSource, `import "fmt"`, `import "os"`, 1), contains: []string{"line 3", `3	import "os"`}},
		{name: "multiple matches name count and lines",
			file: goSource, isError: true,
			args:     map[string]any{"old_string": `fmt.Println("hello")`, "new_string": `fmt.Println("bye")`},
			contains: []string{"matches 2 times", "lines 6, 8", "replace_all"}},
		{name: "replace_all",
			file: goSource,
			args: map[string]any{"old_string": `"hello"`, "new_string": `"bye"`, "replace_all": true},
			want: strings.ReplaceAll(goSource, `"hello"`, `"bye"`), contains: []string{"replaced 2 occurrences"}},
		{name: "whitespace-tolerant unique match keeps indentation",
			file: goSource,
			// Spaces where the file has tabs, and an extra space inside.
			args:     map[string]any{"old_string": "    x :=  1\n    y := 2\n", "new_string": "    x := 10\n    y := 20\n"},
			want:     strings.Replace(goSource, "\tx := 1\n\ty := 2\n", "\tx := 10\n\ty := 20\n", 1),
			contains: []string{"whitespace is ignored", "line 13"}},
		{name: "whitespace-tolerant match maps each indentation level",
			file: "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n",
			args: map[string]any{
				"old_string": "    if x {\n        return 1\n    }",
				"new_string": "    if x {\n        log()\n        return 2\n    }\n    return 0"},
			want: "func f() {\n\tif x {\n\t\tlog()\n\t\treturn 2\n\t}\n\treturn 0\n}\n"},
		{name: "whitespace-tolerant match with unindented old_string",
			file: goSource,
			args: map[string]any{"old_string": "x := 1\ny := 2", "new_string": "x := 5\ny := 6\nz := 7"},
			want: strings.Replace(goSource, "\tx := 1\n\ty := 2\n", "\tx := 5\n\ty := 6\n\tz := 7\n", 1)},
		{name: "ambiguous whitespace match refused",
			file: "a {\n  v = 1\n}\nb {\n    v = 1\n}\n", isError: true,
			args:     map[string]any{"old_string": "\tv = 1", "new_string": "\tv = 2"},
			contains: []string{"ambiguous", "lines 2, 5"}},
		{name: "no match shows closest lines",
			file: goSource, isError: true,
			args:     map[string]any{"old_string": "func other() {\n\tx := 100\n\ty := 200\n}", "new_string": "z"},
			contains: []string{"not found", "closest lines are 12-15", "    13\t\tx := 1\n", "    12\tfunc other() {"}},
		{name: "nothing similar",
			file: goSource, isError: true,
			args:     map[string]any{"old_string": "QQQQQQQQQQQQQQQQ", "new_string": "z"},
			contains: []string{"nothing in it looks similar", "read_file"}},
		{name: "identical strings",
			file: goSource, isError: true,
			args:     map[string]any{"old_string": "x := 1", "new_string": "x := 1"},
			contains: []string{"identical"}},
		{name: "empty old_string on an existing file",
			file: goSource, isError: true,
			args:     map[string]any{"old_string": "", "new_string": "x"},
			contains: []string{"already exists", "write_file"}},
		{name: "CRLF file edited with LF strings",
			file: "one\r\ntwo\r\nthree\r\n",
			args: map[string]any{"old_string": "two\nthree", "new_string": "2\n3"},
			want: "one\r\n2\r\n3\r\n"},
		{name: "CRLF file, old_string in CRLF and new_string in LF",
			file: "one\r\ntwo\r\nthree\r\n",
			args: map[string]any{"old_string": "two\r\nthree", "new_string": "2\n3"},
			want: "one\r\n2\r\n3\r\n"},
		{name: "CRLF file, one line grows into several",
			file: "one\r\ntwo\r\n",
			args: map[string]any{"old_string": "two", "new_string": "2\n2.5"},
			want: "one\r\n2\r\n2.5\r\n"},
		{name: "CRLF file, replace_all with LF strings",
			file: "a\r\nx\r\na\r\nx\r\n",
			args: map[string]any{"old_string": "a\nx", "new_string": "b\nc", "replace_all": true},
			want: "b\r\nc\r\nb\r\nc\r\n"},
		{name: "CRLF file, whitespace-tolerant match with LF strings",
			file: "func f() {\r\n\tx := 1\r\n}\r\n",
			args: map[string]any{"old_string": "    x  :=  1\n}", "new_string": "    x := 2\n    y := 3\n}"},
			want: "func f() {\r\n\tx := 2\r\n\ty := 3\r\n}\r\n"},
		{name: "deleting text",
			file: "keep\ndrop me\nkeep\n",
			args: map[string]any{"old_string": "drop me\n", "new_string": ""},
			want: "keep\nkeep\n"},
		{name: "binary file refused",
			file: "\x7fELF\x00\x00old", isError: true,
			args:     map[string]any{"old_string": "old", "new_string": "new"},
			contains: []string{"binary"}},
		{name: "missing arguments",
			file: goSource, isError: true,
			args:     map[string]any{"old_string": "x"},
			contains: []string{"required"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, map[string]string{"main.go": c.file})
			c.args["path"] = "main.go"
			res := f.run(t, NewEditFile(), c.args)
			if res.IsError != c.isError {
				t.Fatalf("IsError = %v, want %v:\n%s", res.IsError, c.isError, res.Output)
			}
			for _, s := range c.contains {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%s", s, res.Output)
				}
			}
			got := f.read(t, "main.go")
			if c.isError {
				if got != c.file {
					t.Errorf("file changed on error:\n%s", got)
				}
				if f.asker.count() != 0 {
					t.Errorf("asked %d times for a failed edit", f.asker.count())
				}
				return
			}
			if got != c.want {
				t.Errorf("file is\n%q\nwant\n%q", got, c.want)
			}
			if f.asker.count() != 1 {
				t.Fatalf("asked %d times, want 1", f.asker.count())
			}
			ask := f.asker.asks[0]
			if ask.Kind != KindEdit || ask.Path != f.abs("main.go") || ask.Edit == nil ||
				ask.Edit.Old != c.file || ask.Edit.New != c.want || ask.Title != "Edit main.go" {
				t.Errorf("ask = %+v", ask)
			}
			if len(res.Edits) != 1 || res.Edits[0].New != c.want || len(res.Touched) != 1 || res.Touched[0] != f.abs("main.go") {
				t.Errorf("result edits/touched = %+v / %v", res.Edits, res.Touched)
			}
		})
	}
}

func TestEditFileCreatesWithEmptyOldString(t *testing.T) {
	f := newFixture(t, nil)
	res := f.run(t, NewEditFile(), map[string]any{"path": "pkg/new.go", "old_string": "", "new_string": "package pkg\n"})
	if res.IsError || f.read(t, "pkg/new.go") != "package pkg\n" {
		t.Fatalf("create: %+v", res)
	}
	if !res.Edits[0].Create {
		t.Error("FileEdit.Create not set")
	}
	res = f.run(t, NewEditFile(), map[string]any{"path": "absent.go", "old_string": "x", "new_string": "y"})
	if !res.IsError || !strings.Contains(res.Output, "file not found: absent.go") {
		t.Fatalf("missing file: %+v", res)
	}
}

// The model hears about every way an approved-looking edit can fail, and
// nothing is written.
func TestEditRejections(t *testing.T) {
	cases := []struct {
		name     string
		answer   error
		editor   func(context.Context, edits.FileEdit) (edits.Result, error)
		contains string
		goErr    bool
	}{
		{name: "user rejects", answer: ErrRejected, contains: "The user rejected the change to f.txt"},
		{name: "editor rejects", editor: func(context.Context, edits.FileEdit) (edits.Result, error) {
			return edits.Result{Applied: false, Reason: "buffer is read-only"}, nil
		}, contains: "the editor rejected the edit to f.txt: buffer is read-only"},
		{name: "editor fails", editor: func(context.Context, edits.FileEdit) (edits.Result, error) {
			return edits.Result{}, errors.New("connection lost")
		}, goErr: true},
	}
	for _, c := range cases {
		for _, tool := range []Tool{NewEditFile(), NewWriteFile()} {
			t.Run(c.name+"/"+tool.Info().Name, func(t *testing.T) {
				f := newFixture(t, map[string]string{"f.txt": "old\n"})
				f.asker.answer = c.answer
				f.host.applyEdit = c.editor
				args := map[string]any{"path": "f.txt", "old_string": "old", "new_string": "new"}
				if tool.Info().Name == WriteFileName {
					args = map[string]any{"path": "f.txt", "content": "new\n"}
				}
				raw := mustJSON(t, args)
				res, err := tool.Run(context.Background(), f.env, raw)
				if c.goErr {
					if err == nil {
						t.Fatalf("want a Go error, got %+v", res)
					}
				} else if err != nil || !res.IsError || !strings.Contains(res.Output, c.contains) {
					t.Fatalf("got %+v, %v; want model-facing %q", res, err, c.contains)
				}
				if len(res.Edits) != 0 {
					t.Errorf("Edits reported for an edit that did not happen: %v", res.Edits)
				}
				if got := f.read(t, "f.txt"); got != "old\n" {
					t.Errorf("file written: %q", got)
				}
			})
		}
	}
}

// The edit is computed on the editor's buffer, not the disk.
func TestEditFileUsesEditorBuffer(t *testing.T) {
	f := newFixture(t, map[string]string{"f.txt": "disk version\n"})
	f.host.readFile = func(context.Context, string) (string, error) { return "buffer version\n", nil }
	var applied edits.FileEdit
	f.host.applyEdit = func(_ context.Context, e edits.FileEdit) (edits.Result, error) {
		applied = e
		return edits.Result{Applied: true}, nil
	}
	res := f.run(t, NewEditFile(), map[string]any{"path": "f.txt", "old_string": "buffer", "new_string": "edited"})
	if res.IsError || applied.Old != "buffer version\n" || applied.New != "edited version\n" {
		t.Fatalf("res %+v applied %+v", res, applied)
	}
}
