package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// fixture is a tandem lsp process with a fake model and one session.
type fixture struct {
	t       *testing.T
	c       *client
	model   *llmtest.Server
	root    string
	session string
}

func newFixture(t *testing.T, caps map[string]any, mode string, replies ...llmtest.Reply) *fixture {
	t.Helper()
	model := llmtest.NewServer(t)
	model.Enqueue(replies...)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := startClient(t, fakeModelEnv(t, model))
	c.initialize(root, caps)
	var res struct {
		SessionID string `json:"sessionId"`
		Modes     struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	c.mustCall("tandem/newSession", map[string]any{"mode": mode}, &res)
	if res.SessionID == "" {
		t.Fatal("tandem/newSession returned no sessionId")
	}
	if mode != "" && res.Modes.CurrentModeID != mode {
		t.Fatalf("session mode %q, want %q", res.Modes.CurrentModeID, mode)
	}
	return &fixture{t: t, c: c, model: model, root: root, session: res.SessionID}
}

func (f *fixture) write(name, text string) string {
	f.t.Helper()
	p := filepath.Join(f.root, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) disk(name string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.root, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

// prompt sends tandem/prompt and waits for its stop reason.
func (f *fixture) prompt(text string) (string, *rpcError) {
	f.t.Helper()
	res, err := f.c.call("tandem/prompt", map[string]any{
		"sessionId": f.session,
		"prompt":    []map[string]string{{"type": "text", "text": text}},
	})
	if err != nil {
		return "", err
	}
	var out struct {
		StopReason string `json:"stopReason"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		f.t.Fatal(err)
	}
	return out.StopReason, nil
}

// toolResults returns what the model was told in its last request.
func (f *fixture) lastUserText() string {
	reqs := f.model.Requests()
	if len(reqs) == 0 {
		return ""
	}
	return reqs[len(reqs)-1].LastUserText()
}

func editCall(path, old, new string) llmtest.ToolCall {
	args, _ := json.Marshal(map[string]string{"path": path, "old_string": old, "new_string": new})
	return llmtest.ToolCall{Name: "edit_file", Args: string(args)}
}

// editor is the test's model of an editor's open buffers. It applies
// workspace edits the way an LSP client must, counting characters in
// UTF-16 or UTF-8 code units, independently of the server's code.
type editor struct {
	mu   sync.Mutex
	enc  string
	docs map[string]*buffer
}

type buffer struct {
	version int
	text    string
}

type wirePos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type wireRange struct {
	Start wirePos `json:"start"`
	End   wirePos `json:"end"`
}

type wireEdit struct {
	Range   wireRange `json:"range"`
	NewText string    `json:"newText"`
}

type wireDocChange struct {
	Kind         string `json:"kind"`
	URI          string `json:"uri"`
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int   `json:"version"`
	} `json:"textDocument"`
	Edits []wireEdit `json:"edits"`
}

type wireApplyEdit struct {
	Label string `json:"label"`
	Edit  struct {
		Changes           map[string][]wireEdit `json:"changes"`
		DocumentChanges   []wireDocChange       `json:"documentChanges"`
		ChangeAnnotations map[string]struct {
			NeedsConfirmation bool `json:"needsConfirmation"`
		} `json:"changeAnnotations"`
	} `json:"edit"`
}

func newEditor(enc string) *editor { return &editor{enc: enc, docs: map[string]*buffer{}} }

// open sends didOpen.
func (e *editor) open(c *client, path, text string) {
	e.mu.Lock()
	e.docs[fileURI(path)] = &buffer{version: 1, text: text}
	e.mu.Unlock()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "go", "version": 1, "text": text}})
}

// change edits the buffer and sends the incremental didChange.
func (e *editor) change(c *client, path string, es ...wireEdit) {
	e.mu.Lock()
	b := e.docs[fileURI(path)]
	for _, ed := range es {
		b.text = mustApply(b.text, []wireEdit{ed}, e.enc)
	}
	b.version++
	v := b.version
	e.mu.Unlock()
	changes := make([]map[string]any, len(es))
	for i, ed := range es {
		changes[i] = map[string]any{"range": ed.Range, "text": ed.NewText}
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(path), "version": v}, "contentChanges": changes})
}

func (e *editor) text(path string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.docs[fileURI(path)].text
}

func (e *editor) version(path string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.docs[fileURI(path)].version
}

// apply performs a workspace/applyEdit on open buffers, then tells the
// server with didChange, as a real editor does.
func (e *editor) apply(c *client, p wireApplyEdit) error {
	type job struct {
		uri   string
		edits []wireEdit
	}
	var jobs []job
	for uri, es := range p.Edit.Changes {
		jobs = append(jobs, job{uri, es})
	}
	for _, dc := range p.Edit.DocumentChanges {
		if dc.Kind != "" {
			return fmt.Errorf("resource operation %q not supported by the test editor", dc.Kind)
		}
		e.mu.Lock()
		b := e.docs[dc.TextDocument.URI]
		stale := b != nil && dc.TextDocument.Version != nil && *dc.TextDocument.Version != b.version
		e.mu.Unlock()
		if stale {
			return fmt.Errorf("version %d is stale", *dc.TextDocument.Version)
		}
		jobs = append(jobs, job{dc.TextDocument.URI, dc.Edits})
	}
	for _, j := range jobs {
		path := strings.TrimPrefix(j.uri, "file://")
		e.mu.Lock()
		b := e.docs[j.uri]
		e.mu.Unlock()
		if b == nil {
			return fmt.Errorf("%s is not open in the test editor", j.uri)
		}
		// Edits in a WorkspaceEdit all refer to the original text; sent
		// back as didChange they apply one after another, so send them
		// from the last to the first.
		sorted := append([]wireEdit(nil), j.edits...)
		sort.SliceStable(sorted, func(a, b int) bool { return less(sorted[b].Range.Start, sorted[a].Range.Start) })
		e.change(c, path, sorted...)
	}
	return nil
}

func less(a, b wirePos) bool { return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character }

func mustApply(text string, es []wireEdit, enc string) string {
	out, err := applyEdits(text, es, enc)
	if err != nil {
		panic(err)
	}
	return out
}

// applyEdits applies non-overlapping edits that all refer to text.
func applyEdits(text string, es []wireEdit, enc string) (string, error) {
	type rep struct {
		start, end int
		s          string
	}
	reps := make([]rep, len(es))
	for i, e := range es {
		s, err := offsetOf(text, e.Range.Start, enc)
		if err != nil {
			return "", err
		}
		en, err := offsetOf(text, e.Range.End, enc)
		if err != nil {
			return "", err
		}
		reps[i] = rep{s, en, e.NewText}
	}
	sort.SliceStable(reps, func(a, b int) bool { return reps[a].start > reps[b].start })
	for _, r := range reps {
		text = text[:r.start] + r.s + text[r.end:]
	}
	return text, nil
}

// offsetOf converts an LSP position to a byte offset.
func offsetOf(text string, p wirePos, enc string) (int, error) {
	off := 0
	for l := 0; l < p.Line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("line %d beyond the text", p.Line)
		}
		off += i + 1
	}
	units := 0
	for units < p.Character {
		if off >= len(text) || text[off] == '\n' {
			return 0, fmt.Errorf("character %d beyond line %d", p.Character, p.Line)
		}
		r, size := utf8.DecodeRuneInString(text[off:])
		if enc == "utf-8" {
			units += size
		} else {
			units += len(utf16.Encode([]rune{r}))
		}
		off += size
	}
	if units != p.Character {
		return 0, fmt.Errorf("position %d:%d falls inside a character", p.Line, p.Character)
	}
	return off, nil
}
