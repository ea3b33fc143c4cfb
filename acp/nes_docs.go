package acp

import (
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/completion"
)

// nesDocs are the documents one NES session was told about (document/*
// notifications) and their recent edits, by path. Positions are UTF-16:
// tandem selects no other position encoding.
type nesDocs struct {
	mu      sync.Mutex // guards open and history
	open    map[string]*nesDoc
	history completion.History
}

type nesDoc struct {
	uri  string
	text string
}

func (d *nesDocs) put(path, uri, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.open == nil {
		d.open = map[string]*nesDoc{}
	}
	if old, ok := d.open[path]; ok {
		for _, c := range completion.TextChanges(path, old.text, text) {
			d.history.Record(c)
		}
	}
	d.open[path] = &nesDoc{uri: uri, text: text}
}

func (d *nesDocs) close(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.open, path)
	d.history.Forget(path)
}

// change applies document/didChange's changes in order. A change that does
// not fit the text leaves the document closed (out of step with the
// editor, it would only mislead) until it is opened again.
func (d *nesDocs) change(path string, changes []sdk.UnstableTextDocumentContentChangeEvent) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc := d.open[path]
	if doc == nil {
		return false
	}
	for _, c := range changes {
		if c.Range == nil {
			for _, ch := range completion.TextChanges(path, doc.text, c.Text) {
				d.history.Record(ch)
			}
			doc.text = c.Text
			continue
		}
		start, end, err := edits.NewMapper(doc.text, edits.UTF16).Offsets(nesRange(*c.Range))
		if err != nil || end < start {
			delete(d.open, path)
			d.history.Forget(path)
			return false
		}
		ls := strings.LastIndexByte(doc.text[:start], '\n') + 1
		le := len(doc.text)
		if i := strings.IndexByte(doc.text[end:], '\n'); i >= 0 {
			le = end + i + 1
		}
		d.history.Record(completion.LineChange(path, strings.Count(doc.text[:ls], "\n"), doc.text[ls:le], start-ls, end-ls, c.Text))
		doc.text = doc.text[:start] + c.Text + doc.text[end:]
	}
	return true
}

// get returns the text and URI of an open document.
func (d *nesDocs) get(path string) (text, uri string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if doc := d.open[path]; doc != nil {
		return doc.text, doc.uri, true
	}
	return "", "", false
}

func (d *nesDocs) recent() []completion.Change {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.history.Recent()
}

func nesRange(r sdk.UnstableRange) edits.Range {
	return edits.Range{Start: nesPos(r.Start), End: nesPos(r.End)}
}

func nesPos(p sdk.UnstablePosition) edits.Position {
	return edits.Position{Line: uint32(max(p.Line, 0)), Character: uint32(max(p.Character, 0))}
}
