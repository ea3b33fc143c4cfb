package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/proc"
)

func capsOf(t *testing.T, js string) *clientCaps {
	t.Helper()
	var c clientCaps
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// TestPlanEdit checks the workspace edit each kind of client gets, as JSON.
func TestPlanEdit(t *testing.T) {
	const (
		neovim = `{"workspace":{"applyEdit":true,"workspaceEdit":{"resourceOperations":["rename","create","delete"]}}}`
		eglot  = `{"workspace":{"applyEdit":true,"workspaceEdit":{"documentChanges":true}}}`
		vscode = `{"workspace":{"applyEdit":true,"workspaceEdit":{"documentChanges":true,"resourceOperations":["create","rename","delete"],"changeAnnotationSupport":{"groupsOnLabel":true}}}}`
		uri    = "file:///w/a.go"
	)
	v3 := int32(3)
	open := editTarget{uri: uri, version: &v3}
	closed := editTarget{uri: uri}
	edit := edits.FileEdit{Path: "/w/a.go", Old: "a\nb\n", New: "a\nB\n", Label: "edit_file: a.go"}
	create := edits.FileEdit{Path: "/w/a.go", New: "new\n", Create: true, Label: "write_file: a.go"}
	del := edits.FileEdit{Path: "/w/a.go", Old: "a\n", Delete: true}
	for _, tc := range []struct {
		name    string
		fe      edits.FileEdit
		target  editTarget
		current string
		caps    string
		review  bool
		want    string // JSON of the workspace edit; "" = none sent
		onDisk  bool
		stale   bool
	}{
		{name: "eglot open buffer: versioned documentChanges", fe: edit, target: open, current: edit.Old, caps: eglot,
			want: `{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":3},"edits":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"newText":"B"}]}]}`},
		{name: "closed file: null version", fe: edit, target: closed, current: edit.Old, caps: eglot,
			want: `{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":null},"edits":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"newText":"B"}]}]}`},
		{name: "neovim: changes, no documentChanges flag", fe: edit, target: open, current: edit.Old, caps: neovim, review: true,
			want: `{"changes":{"file:///w/a.go":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"newText":"B"}]}}`},
		{name: "vscode review: annotated, needsConfirmation", fe: edit, target: open, current: edit.Old, caps: vscode, review: true,
			want: `{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":3},"edits":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"newText":"B","annotationId":"tandem"}]}],"changeAnnotations":{"tandem":{"label":"edit_file: a.go","needsConfirmation":true,"description":"Proposed by the tandem agent"}}}`},
		{name: "vscode without review: no annotation", fe: edit, target: open, current: edit.Old, caps: vscode,
			want: `{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":3},"edits":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"newText":"B"}]}]}`},
		{name: "buffer changed since the read: stale, nothing sent", fe: edit, target: open, current: "a\nb\nc\n", caps: eglot, stale: true},
		{name: "no change: nothing sent", fe: edits.FileEdit{Path: "/w/a.go", Old: "x", New: "x"}, target: open, current: "x", caps: eglot},
		{name: "create with resource operations", fe: create, target: closed, caps: neovim,
			want: `{"documentChanges":[{"kind":"create","uri":"file:///w/a.go"},{"textDocument":{"uri":"file:///w/a.go","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"new\n"}]}]}`},
		{name: "create on eglot: on disk", fe: create, target: closed, caps: eglot, onDisk: true},
		{name: "delete with resource operations", fe: del, target: closed, caps: vscode,
			want: `{"documentChanges":[{"kind":"delete","uri":"file:///w/a.go"}]}`},
		{name: "delete on eglot: on disk", fe: del, target: closed, caps: eglot, onDisk: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planEdit(tc.fe, tc.target, tc.current, capsOf(t, tc.caps), edits.UTF16, tc.review)
			if p.onDisk != tc.onDisk || p.stale != tc.stale {
				t.Fatalf("onDisk %v stale %v, want %v %v", p.onDisk, p.stale, tc.onDisk, tc.stale)
			}
			got := ""
			if p.edit != nil {
				b, err := json.Marshal(p.edit)
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
			}
			if got != tc.want {
				t.Errorf("workspace edit\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestApplyEditResultFailedChange: a failedChange of 0 (the first change)
// survives decoding, which protocol v0.12.0's omitempty uint32 loses.
func TestApplyEditResultFailedChange(t *testing.T) {
	var r applyEditResult
	if err := json.Unmarshal([]byte(`{"applied":false,"failedChange":0}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.FailedChange == nil || *r.FailedChange != 0 {
		t.Errorf("failedChange = %v, want 0", r.FailedChange)
	}
}

func bigFile(lines int) string {
	var b strings.Builder
	for i := range lines {
		b.WriteString("\tvalue := compute(") // ASCII with a tab
		b.WriteString(strings.Repeat("x", i%40))
		b.WriteString(") // 注释 😀\n")
	}
	return b.String()
}

// BenchmarkPlanEdit50 measures the applyEdit computation for a 5,000-line
// open file edited in 50 places (budget: 5 ms).
func BenchmarkPlanEdit50(b *testing.B) {
	old := bigFile(5000)
	lines := strings.SplitAfter(old, "\n")
	for i := 0; i < 50; i++ {
		n := i * 100
		lines[n] = strings.Replace(lines[n], "compute", "recompute", 1)
	}
	nu := strings.Join(lines, "")
	caps := &clientCaps{}
	caps.Workspace.ApplyEdit = true
	caps.Workspace.WorkspaceEdit.DocumentChanges = true
	v := int32(1)
	fe := edits.FileEdit{Path: "/w/big.go", Old: old, New: nu}
	defer reportCPU(b)()
	for b.Loop() {
		p := planEdit(fe, editTarget{uri: "file:///w/big.go", version: &v}, old, caps, edits.UTF16, false)
		if n := len(p.edit.DocumentChanges[0].(textDocumentEdit).Edits); n != 50 {
			b.Fatalf("%d edits, want 50", n)
		}
	}
}

// BenchmarkDidChangeKeystroke measures one keystroke-sized didChange on a
// 5,000-line buffer, decoding included (budget: 100 µs).
func BenchmarkDidChangeKeystroke(b *testing.B) {
	s := NewServer(Options{})
	const uri = "file:///w/big.go"
	s.docs.put(&document{uri: uri, path: "/w/big.go", version: 1, buf: newBuffer(bigFile(5000), edits.UTF16)})
	// Type a character, then delete it, so the document keeps its size.
	typeIt := []byte(`{"textDocument":{"uri":"file:///w/big.go","version":2},"contentChanges":[{"range":{"start":{"line":2500,"character":20},"end":{"line":2500,"character":20}},"text":"a"}]}`)
	undo := []byte(`{"textDocument":{"uri":"file:///w/big.go","version":3},"contentChanges":[{"range":{"start":{"line":2500,"character":20},"end":{"line":2500,"character":21}},"text":""}]}`)
	defer reportCPU(b)()
	i := 0
	for b.Loop() {
		params := typeIt
		if i%2 == 1 {
			params = undo
		}
		i++
		if err := s.didChange(nil, params); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU adds the process CPU time per operation, which, unlike ns/op,
// does not grow when other processes load the machine.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		d, _ := proc.SelfUsage()
		return d
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
	}
}
