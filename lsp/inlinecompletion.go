package lsp

import (
	"context"
	"encoding/json"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/completion"
	"github.com/tandemhq/tandem/internal/pathx"
)

// LSP 3.18's inline completion types, which go.lsp.dev/protocol v0.12
// predates; only the fields tandem reads or writes.
type inlineCompletionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Position edits.Position `json:"position"`
	Context  struct {
		// TriggerKind is 1 (Invoked: the user asked) or 2 (Automatic:
		// typing).
		TriggerKind            int `json:"triggerKind"`
		SelectedCompletionInfo *struct {
			Range edits.Range `json:"range"`
			Text  string      `json:"text"`
		} `json:"selectedCompletionInfo"`
	} `json:"context"`
}

const triggerInvoked = 1

type inlineCompletionList struct {
	Items []inlineCompletionItem `json:"items"`
}

type inlineCompletionItem struct {
	InsertText string       `json:"insertText"`
	Range      *edits.Range `json:"range,omitempty"`
}

// maxOpenContext bounds the other open buffers a completion looks at.
const maxOpenContext = 8

// inlineCompletion serves textDocument/inlineCompletion: the cursor's
// view of the buffer to the completion engine, its suggestion back as one
// item. A request the engine answers empty (superseded by the next
// keystroke, an excluded file, completions off) gets an empty list;
// $/cancelRequest gets RequestCancelled.
func (s *Server) inlineCompletion(ctx context.Context, params json.RawMessage) (any, error) {
	var p inlineCompletionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	empty := inlineCompletionList{Items: []inlineCompletionItem{}}
	if s.complete == nil {
		return empty, nil
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return empty, nil
	}
	var sel *edits.Range
	selText := ""
	if si := p.Context.SelectedCompletionInfo; si != nil {
		sel, selText = &si.Range, si.Text
	}
	v, open, err := s.docs.view(path, p.Position, sel, selText, maxOpenContext)
	switch {
	case !open:
		return empty, nil // not a buffer tandem follows: nothing it could send
	case err != nil:
		return nil, invalidParams("%s: %v", p.TextDocument.URI, err)
	}
	root := s.folderOf(v.key)
	req := completion.Request{
		Doc: v.key, Root: root, Before: v.before, After: v.after,
		Invoked: p.Context.TriggerKind == triggerInvoked, Open: v.open,
	}
	if root != "" {
		if a, err := s.agentFor(ctx); err == nil && a.Indexes() != nil {
			if ix := s.indexes.ready(s.baseCtx, a.Indexes(), root); ix != nil {
				req.Symbols = completion.IndexSymbols(ix)
			}
		}
	}
	res, err := s.complete.Complete(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.log.Warn("inline completion failed", "err", err)
		return nil, rpcError(codeRequestFailed, err.Error())
	}
	if res.Text == "" {
		return empty, nil
	}
	item := inlineCompletionItem{InsertText: res.Text, Range: &edits.Range{Start: p.Position, End: p.Position}}
	if sel != nil {
		// The item replaces the selected item's range and continues its text.
		item.InsertText = selText + res.Text
		item.Range = &edits.Range{Start: sel.Start, End: maxPosition(sel.End, p.Position)}
	}
	return inlineCompletionList{Items: []inlineCompletionItem{item}}, nil
}

func maxPosition(a, b edits.Position) edits.Position {
	if a.Line > b.Line || a.Line == b.Line && a.Character > b.Character {
		return a
	}
	return b
}

// folderOf returns the workspace folder holding the canonical path, or "".
func (s *Server) folderOf(path string) string {
	s.stateMu.Lock()
	folders := append([]string(nil), s.folders...)
	s.stateMu.Unlock()
	best := ""
	for _, f := range folders {
		if _, ok := pathx.Within(f, path); ok && len(f) > len(best) {
			best = f
		}
	}
	if best != "" {
		return best
	}
	for _, f := range folders {
		if c := canonical(f); c != f {
			if _, ok := pathx.Within(c, path); ok && len(c) > len(best) {
				best = c
			}
		}
	}
	return best
}

// forgetCompletions drops a closed document's completion state.
func (s *Server) forgetCompletions(path string) {
	if s.complete != nil {
		s.complete.Forget(s.docs.key(path))
	}
}
