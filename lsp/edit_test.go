package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// The file the edit tests start from: lines with astral-plane emoji (two
// UTF-16 units, four UTF-8 bytes) and CJK text (one unit, three bytes), so
// positions in the wrong encoding land in the wrong place.
const wideText = "package main\n\n// 😀 smile 😀 here\nvar s = \"日本語テキスト\" // 中文\nfunc f() {}\n"

// TestApplyEditUTF16 edits an open buffer holding an unsaved change. The
// agent must read the buffer, and its edits must reach the editor as
// workspace/applyEdit with UTF-16 positions, leaving the disk alone.
func TestApplyEditUTF16(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		caps map[string]any
		enc  string
	}{
		{"documentChanges utf-16", map[string]any{"workspace": map[string]any{"applyEdit": true,
			"workspaceEdit": map[string]any{"documentChanges": true}}}, "utf-16"},
		{"changes only utf-16 (Neovim 0.7)", map[string]any{"workspace": map[string]any{"applyEdit": true,
			"workspaceEdit": map[string]any{"resourceOperations": []string{"rename", "create", "delete"}}}}, "utf-16"},
		{"documentChanges utf-8", map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}},
			"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}}, "utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.caps, "auto-edit",
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{
					editCall("main.go", "grin 😀 here", "grin 😀 there 🎉"),
					editCall("main.go", "日本語テキスト", "こんにちは世界"),
				}},
				llmtest.Reply{Text: []string{"done"}},
			)
			path := f.write("main.go", wideText)
			ed := newEditor(tc.enc)
			ed.open(f.c, path, wideText)
			// The unsaved change: "smile" -> "grin", after an emoji.
			col := 6 // "// " + 😀 (2 units) + " "
			if tc.enc == "utf-8" {
				col = 8
			}
			ed.change(f.c, path, wireEdit{Range: wireRange{Start: wirePos{2, col}, End: wirePos{2, col + 5}}, NewText: "grin"})

			var got []wireApplyEdit
			f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
				if method != "workspace/applyEdit" {
					return nil, &rpcError{Code: -32601, Message: method}
				}
				var p wireApplyEdit
				if err := json.Unmarshal(params, &p); err != nil {
					t.Errorf("applyEdit params: %v", err)
				}
				got = append(got, p)
				if err := ed.apply(f.c, p); err != nil {
					return map[string]any{"applied": false, "failureReason": err.Error()}, nil
				}
				return map[string]any{"applied": true}, nil
			})
			if stop, err := f.prompt("edit main.go"); err != nil || stop != "end_turn" {
				t.Fatalf("prompt: %q, %v", stop, err)
			}
			want := strings.NewReplacer("smile 😀 here", "grin 😀 there 🎉", "日本語テキスト", "こんにちは世界").Replace(wideText)
			if b := ed.text(path); b != want {
				t.Errorf("buffer after the edits:\n%q\nwant\n%q", b, want)
			}
			if d := f.disk("main.go"); d != wideText {
				t.Errorf("the disk changed behind the editor's back:\n%q", d)
			}
			if len(got) != 2 {
				t.Fatalf("got %d workspace/applyEdit requests, want 2", len(got))
			}
			for i, p := range got {
				if !strings.Contains(p.Label, "main.go") {
					t.Errorf("edit %d label %q does not name the file", i, p.Label)
				}
				docChanges := tc.caps["workspace"].(map[string]any)["workspaceEdit"].(map[string]any)["documentChanges"] == true
				if docChanges {
					if len(p.Edit.DocumentChanges) != 1 || p.Edit.Changes != nil {
						t.Fatalf("edit %d: want one versioned TextDocumentEdit, got %+v", i, p.Edit)
					}
					if v := p.Edit.DocumentChanges[0].TextDocument.Version; v == nil || *v != 2+i {
						t.Errorf("edit %d targets version %v, want %d", i, v, 2+i)
					}
				} else if len(p.Edit.Changes) != 1 || p.Edit.DocumentChanges != nil {
					t.Errorf("edit %d: a client without documentChanges must get changes, got %+v", i, p.Edit)
				}
			}
			if u := f.lastUserText(); strings.Contains(u, "rejected") {
				t.Errorf("the model was told of a rejection: %s", u)
			}
		})
	}
}

// TestApplyEditRejected: applied:false reaches the model as a rejection,
// with or without a reason, and nothing is written to disk.
func TestApplyEditRejected(t *testing.T) {
	t.Parallel()
	for _, reason := range []string{"", "the user discarded it"} {
		t.Run("reason="+reason, func(t *testing.T) {
			t.Parallel()
			caps := map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}}
			f := newFixture(t, caps, "full-auto",
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("main.go", "func f() {}", "func g() {}")}},
				llmtest.Reply{Text: []string{"ok"}},
			)
			path := f.write("main.go", wideText)
			ed := newEditor("utf-16")
			ed.open(f.c, path, wideText)
			f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
				res := map[string]any{"applied": false}
				if reason != "" {
					res["failureReason"] = reason
				}
				return res, nil
			})
			if _, err := f.prompt("rename f"); err != nil {
				t.Fatal(err)
			}
			told := f.lastUserText()
			if !strings.Contains(told, "the editor rejected the edit") || (reason != "" && !strings.Contains(told, reason)) {
				t.Errorf("the model was told %q; want the editor's rejection (and its reason %q)", told, reason)
			}
			if d := f.disk("main.go"); d != wideText {
				t.Errorf("disk written after a rejection: %q", d)
			}
		})
	}
}

// TestApplyEditStaleVersion: the user types while the edit is in flight;
// the editor refuses the stale version (as eglot does, with an error) and
// the model hears the edit was rejected.
func TestApplyEditStaleVersion(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}}
	f := newFixture(t, caps, "full-auto",
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("main.go", "func f() {}", "func g() {}")}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	path := f.write("main.go", wideText)
	ed := newEditor("utf-16")
	ed.open(f.c, path, wideText)
	var sent *int
	f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		var p wireApplyEdit
		json.Unmarshal(params, &p)
		sent = p.Edit.DocumentChanges[0].TextDocument.Version
		// A keystroke lands first.
		ed.change(f.c, path, wireEdit{Range: wireRange{Start: wirePos{0, 0}, End: wirePos{0, 0}}, NewText: "// typed\n"})
		if err := ed.apply(f.c, p); err != nil {
			return nil, &rpcError{Code: -32803, Message: err.Error()}
		}
		return map[string]any{"applied": true}, nil
	})
	if _, err := f.prompt("rename f"); err != nil {
		t.Fatal(err)
	}
	if sent == nil || *sent != 1 {
		t.Errorf("edit targeted version %v, want 1 (the buffer the agent read)", sent)
	}
	if told := f.lastUserText(); !strings.Contains(told, "the editor rejected the edit") || !strings.Contains(told, "stale") {
		t.Errorf("model told %q, want the stale-version rejection", told)
	}
	if b := ed.text(path); !strings.HasPrefix(b, "// typed\n") || !strings.Contains(b, "func f() {}") {
		t.Errorf("buffer = %q: the user's keystroke must survive and the edit must not land", b)
	}
}

// TestEditClosedFile: edits to a file the editor has not opened carry a
// null version; once applied, the editor holds the new text in a buffer
// (Neovim loads it without didOpen), so the agent's next read must see
// that text, not the untouched disk.
func TestEditClosedFile(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}}
	f := newFixture(t, caps, "full-auto",
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("a.txt", "one", "two")}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("a.txt", "two", "three")}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	f.write("a.txt", "one\n")
	held := "one\n" // the editor's hidden buffer of a.txt
	var versions []*int
	f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		var p wireApplyEdit
		json.Unmarshal(params, &p)
		dc := p.Edit.DocumentChanges[0]
		versions = append(versions, dc.TextDocument.Version)
		next, err := applyEdits(held, dc.Edits, "utf-16")
		if err != nil {
			return map[string]any{"applied": false, "failureReason": err.Error()}, nil
		}
		held = next
		return map[string]any{"applied": true}, nil
	})
	if _, err := f.prompt("count up"); err != nil {
		t.Fatal(err)
	}
	if held != "three\n" {
		t.Errorf("editor buffer %q, want three (the second edit must build on the first)", held)
	}
	if len(versions) != 2 || versions[0] != nil || versions[1] != nil {
		t.Errorf("versions %v, want two nulls", versions)
	}
	if d := f.disk("a.txt"); d != "one\n" {
		t.Errorf("disk = %q, want it untouched", d)
	}
	if told := f.lastUserText(); strings.Contains(told, "rejected") || strings.Contains(told, "not found") {
		t.Errorf("model told %q", told)
	}
}
