package lsp

import (
	"cmp"
	"slices"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/completion"
)

// touch marks d as the most recently edited document. Called with ds.mu
// held.
func (ds *documents) touch(d *document) {
	ds.seq++
	d.edited = ds.seq
}

// cursorView is what an inline completion reads of the open buffers: the
// text on either side of the cursor (with the popup's selected item in
// place of the range it would replace) and the other open buffers, most
// recently edited first.
type cursorView struct {
	key           string // the document's canonical path
	before, after string
	open          []completion.OpenFile
}

// view reads the cursor's view of the open document at path; ok is false
// when it is not open. sel, when set, is the selected item's range, which
// selText replaces.
func (ds *documents) view(path string, pos edits.Position, sel *edits.Range, selText string, maxOpen int) (v cursorView, ok bool, err error) {
	key := ds.key(path)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	d := ds.open[key]
	if d == nil {
		return v, false, nil
	}
	text := d.buf.String()
	at, err := d.buf.offset(pos)
	if err != nil {
		return v, true, err
	}
	v.key, v.before, v.after = key, text[:at], text[at:]
	if sel != nil {
		start, err := d.buf.offset(sel.Start)
		if err != nil {
			return v, true, err
		}
		end, err := d.buf.offset(sel.End)
		if err != nil {
			return v, true, err
		}
		if start > at || end < start {
			return v, true, edits.ErrPosition
		}
		v.before, v.after = text[:start]+selText, text[max(at, end):]
	}
	type other struct {
		key string
		d   *document
	}
	others := make([]other, 0, len(ds.open))
	for k, o := range ds.open {
		if k != key {
			others = append(others, other{k, o})
		}
	}
	slices.SortFunc(others, func(a, b other) int { return cmp.Compare(b.d.edited, a.d.edited) })
	for _, o := range others[:min(len(others), maxOpen)] {
		b := o.d.buf
		v.open = append(v.open, completion.OpenFile{Path: o.key, Text: b.String(), At: b.lines[min(o.d.editLine, len(b.lines)-1)]})
	}
	return v, true, nil
}
