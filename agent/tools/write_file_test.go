package tools

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestWriteFile(t *testing.T) {
	f := newFixture(t, map[string]string{"exists.sh": "#!/bin/sh\necho old\n"})
	if err := os.Chmod(f.abs("exists.sh"), 0o755); err != nil {
		t.Fatal(err)
	}

	res := f.run(t, NewWriteFile(), map[string]any{"path": "exists.sh", "content": "#!/bin/sh\necho new\n"})
	if res.IsError || !strings.Contains(res.Output, "Wrote exists.sh (2 lines)") {
		t.Fatalf("overwrite: %+v", res)
	}
	if got := f.read(t, "exists.sh"); got != "#!/bin/sh\necho new\n" {
		t.Errorf("content %q", got)
	}
	if fi, _ := os.Stat(f.abs("exists.sh")); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755 kept", fi.Mode().Perm())
	}
	ask := f.asker.asks[0]
	if ask.Kind != KindEdit || ask.Edit.Old != "#!/bin/sh\necho old\n" || ask.Edit.Create || ask.Title != "Write exists.sh" {
		t.Errorf("ask %+v", ask)
	}

	res = f.run(t, NewWriteFile(), map[string]any{"path": "a/b/new.txt", "content": "fresh"})
	if res.IsError || !strings.Contains(res.Output, "Created a/b/new.txt (1 lines)") || f.read(t, "a/b/new.txt") != "fresh" {
		t.Fatalf("create: %+v", res)
	}
	if e := res.Edits[0]; !e.Create || e.Old != "" || e.New != "fresh" || e.Path != f.abs("a/b/new.txt") {
		t.Errorf("edit %+v", e)
	}

	asked := f.asker.count()
	res = f.run(t, NewWriteFile(), map[string]any{"path": "a/b/new.txt", "content": "fresh"})
	if res.IsError || !strings.Contains(res.Output, "already has exactly this content") || f.asker.count() != asked {
		t.Errorf("no-op write: %+v (asks %d -> %d)", res, asked, f.asker.count())
	}

	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "x.txt"}, `missing required field "content" (string)`},
		{map[string]any{"path": "a", "content": "x"}, "is a directory"},
	} {
		res := f.run(t, NewWriteFile(), c.args)
		if !res.IsError || !strings.Contains(res.Output, c.want) {
			t.Errorf("%v: %+v", c.args, res)
		}
	}

	// An empty content is a legitimate write.
	res = f.run(t, NewWriteFile(), map[string]any{"path": "exists.sh", "content": ""})
	if res.IsError || f.read(t, "exists.sh") != "" {
		t.Errorf("emptying: %+v", res)
	}
}

// Rewriting a CRLF file with the LF text a model writes keeps CRLF, so the
// change is only what changed; content with "\r" in it is written as given,
// and a new file takes the content as it is.
func TestWriteFileKeepsCRLF(t *testing.T) {
	f := newFixture(t, map[string]string{"win.txt": "one\r\ntwo\r\n", "lf.txt": "one\ntwo\n", "same.txt": "one\r\ntwo\r\n"})
	for _, c := range []struct{ path, content, want string }{
		{"win.txt", "one\ntwo\nthree\n", "one\r\ntwo\r\nthree\r\n"},
		{"win.txt", "mixed\r\nand\n", "mixed\r\nand\n"},
		{"lf.txt", "one\r\n", "one\r\n"},
		{"new.txt", "a\nb\n", "a\nb\n"},
	} {
		res := f.run(t, NewWriteFile(), map[string]any{"path": c.path, "content": c.content})
		if res.IsError {
			t.Fatalf("write %s: %s", c.path, res.Output)
		}
		if got := f.read(t, c.path); got != c.want {
			t.Errorf("write %q to %s: file is %q, want %q", c.content, c.path, got, c.want)
		}
	}
	// The same LF text again is no change at all: nothing to ask.
	asked := f.asker.count()
	res := f.run(t, NewWriteFile(), map[string]any{"path": "same.txt", "content": "one\ntwo\n"})
	if !strings.Contains(res.Output, "already has exactly this content") || f.asker.count() != asked {
		t.Errorf("LF rewrite of an equal CRLF file: %+v", res)
	}
}
