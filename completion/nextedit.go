package completion

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Suggestion is one file's next edit: the file's text when the edit was
// suggested (Old) and with the edit made (New). A front door turns it into
// the text edits its editor applies (edits.TextEdits), after checking the
// editor still holds Old.
type Suggestion struct {
	Path string
	Old  string
	New  string
}

// NextEditModel answers one next-edit prompt with the model's text.
type NextEditModel interface {
	NextEdit(ctx context.Context, system, user string) (string, error)
}

// ErrNoNextEditModel is Suggest's error when no model is configured.
var ErrNoNextEditModel = errors.New("no model for next-edit suggestions: configure a completion or chat model")

// NextEdit suggests the edit that follows the user's recent ones: the
// rename carried to the other uses, the matching change in the test. It
// shows the model the recent edits as diffs and excerpts of the files
// they bear on, asks for search/replace blocks and keeps only blocks that
// apply exactly (nextedit_parse.go). It is safe for concurrent use when
// its functions are.
type NextEdit struct {
	// Model is asked first; Fallback (may be nil) when Model fails or its
	// reply is not in the format: the completion model first, the chat
	// model after it.
	Model    NextEditModel
	Fallback NextEditModel
	// Read returns what the editor holds of path (its open buffer), else
	// the file on disk; ok is false when it cannot be read.
	Read func(path string) (text string, ok bool)
	// Related lists files (absolute) that use or define names, nearest to
	// the document at path first, from the code index; nil: only the
	// document and its test are looked at.
	Related func(ctx context.Context, root, path string, names []string) []string
	// Excluded says a file must never reach the model (secrets, ignored
	// files); nil: Excluded's rule (protected, secret-named and
	// ignored files).
	Excluded func(path string) bool
}

// NextEditRequest is the state a suggestion starts from.
type NextEditRequest struct {
	// Root is the workspace folder holding Path; names in the prompt are
	// relative to it.
	Root string
	// Path is the document's absolute path, Text its text now, Cursor a
	// byte offset in Text.
	Path   string
	Text   string
	Cursor int
	// Recent are the user's recent edits, oldest first (History.Recent).
	Recent []Change
}

// Limits of one prompt: how many other files, how much of each.
const (
	maxRelated     = 3
	maxFileBytes   = 256 << 10 // larger files are not shown
	cursorRadius   = 30        // lines around the cursor
	useRadius      = 4         // lines around each use of a changed name
	maxUsesPerFile = 6
	testHeadLines  = 60 // lines of a test file with no use of a name
)

// Suggest returns the suggested edits, none when the model has nothing to
// suggest or its reply does not apply. Without recent edits there is
// nothing to follow, and the model is not asked.
func (e *NextEdit) Suggest(ctx context.Context, r NextEditRequest) ([]Suggestion, error) {
	if len(r.Recent) == 0 {
		return nil, nil
	}
	if e.Model == nil {
		return nil, ErrNoNextEditModel
	}
	if e.excluded(r.Root, r.Path) {
		return nil, nil
	}
	last := r.Recent[len(r.Recent)-1]
	gone, _ := changedNames(last)
	files := []*shownFile{e.current(r, gone)}
	for _, p := range e.others(ctx, r, gone) {
		if f := e.other(r, p, gone); f != nil {
			files = append(files, f)
		}
	}
	system, user := nextEditPrompt(r, files)
	var failed error
	for _, m := range []NextEditModel{e.Model, e.Fallback} {
		if m == nil {
			continue
		}
		reply, err := m.NextEdit(ctx, system, user)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("next edit: %w", ctx.Err())
			}
			failed = fmt.Errorf("next edit: %w", err)
			continue
		}
		blocks, err := parseReply(reply)
		if err != nil {
			failed = nil // malformed: dropped, as any reply that does not apply
			continue
		}
		return applyBlocks(files, dropUndo(blocks, r.Recent)), nil
	}
	return nil, failed
}

func (e *NextEdit) excluded(root, path string) bool {
	if e.Excluded == nil {
		return Excluded(root, path, nil)
	}
	return e.Excluded(path)
}

// current is the document as the prompt shows it: around the cursor and
// around the remaining uses of the names the last edit removed.
func (e *NextEdit) current(r NextEditRequest, gone []string) *shownFile {
	f := &shownFile{name: displayName(r.Root, r.Path), path: r.Path, text: r.Text}
	line := strings.Count(r.Text[:min(max(r.Cursor, 0), len(r.Text))], "\n")
	f.add(lineSpan(r.Text, line-cursorRadius, line+cursorRadius))
	f.addUses(gone)
	return f
}

// others are the files besides the document the edit may carry to: its
// test (or the code it tests) and the files the index says use the names.
func (e *NextEdit) others(ctx context.Context, r NextEditRequest, gone []string) []string {
	var out []string
	seen := map[string]bool{r.Path: true}
	add := func(p string) {
		if !seen[p] && len(out) < maxRelated && !e.excluded(r.Root, p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range pairedFiles(r.Path) {
		if _, ok := e.read(p); ok {
			add(p)
		}
	}
	if e.Related != nil && len(gone) > 0 {
		for _, p := range e.Related(ctx, r.Root, r.Path, gone) {
			add(p)
		}
	}
	return out
}

func (e *NextEdit) read(path string) (string, bool) {
	if e.Read == nil {
		return "", false
	}
	t, ok := e.Read(path)
	if !ok || len(t) > maxFileBytes {
		return "", false
	}
	return t, true
}

// other is another file as the prompt shows it: around the uses of the
// removed names, or its head when it is the document's test (or the code
// the document tests) without one.
func (e *NextEdit) other(r NextEditRequest, path string, gone []string) *shownFile {
	text, ok := e.read(path)
	if !ok {
		return nil
	}
	f := &shownFile{name: displayName(r.Root, path), path: path, text: text}
	f.addUses(gone)
	if len(f.spans) == 0 {
		if !slices.Contains(pairedFiles(r.Path), path) {
			return nil
		}
		f.add(lineSpan(text, 0, testHeadLines))
	}
	return f
}

// addUses shows the lines around each use of the names.
func (f *shownFile) addUses(names []string) {
	n := 0
	for _, name := range names {
		for at := 0; n < maxUsesPerFile; {
			i := indexWord(f.text[at:], name)
			if i < 0 {
				break
			}
			i += at
			line := strings.Count(f.text[:i], "\n")
			f.add(lineSpan(f.text, line-useRadius, line+useRadius))
			at = i + len(name)
			n++
		}
	}
}

// add shows span s, merged with the spans it overlaps or touches.
func (f *shownFile) add(s [2]int) {
	out := f.spans[:0:0]
	for _, o := range f.spans {
		if o[1] < s[0] || s[1] < o[0] {
			out = append(out, o)
			continue
		}
		s = [2]int{min(s[0], o[0]), max(s[1], o[1])}
	}
	i := 0
	for i < len(out) && out[i][0] < s[0] {
		i++
	}
	f.spans = append(out[:i], append([][2]int{s}, out[i:]...)...)
}

// lineSpan is the byte span of lines [from, to] of text, clamped.
func lineSpan(text string, from, to int) [2]int {
	start := 0
	for l := 0; l < from; l++ {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return [2]int{len(text), len(text)}
		}
		start += i + 1
	}
	end := start
	for l := max(from, 0); l <= to; l++ {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return [2]int{start, len(text)}
		}
		end += i + 1
	}
	return [2]int{start, end}
}

// displayName is path as the prompt names it: relative to root with
// slashes when inside it.
func displayName(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && root != "" && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// dropUndo removes blocks that would undo one of the recent edits: the
// model copying the history backwards is not a next edit.
func dropUndo(blocks []block, recent []Change) []block {
	out := blocks[:0:0]
	for _, b := range blocks {
		undo := false
		for _, c := range recent {
			if strings.Contains(c.New, b.search) && strings.Contains(c.Old, b.replace) && b.replace != "" {
				undo = true
			}
		}
		if !undo {
			out = append(out, b)
		}
	}
	return out
}
