package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/completion"
)

// nextEditSuggestion is one file's suggested edit as tandem/nextEdit
// answers it: ACP's NesEditSuggestion without the kind, so a kit renders
// both the same way.
type nextEditSuggestion struct {
	ID             string           `json:"id"`
	URI            string           `json:"uri"`
	Edits          []edits.TextEdit `json:"edits"`
	CursorPosition *edits.Position  `json:"cursorPosition,omitempty"`
}

// nextEdit serves tandem/nextEdit: the edit that follows the user's recent
// ones (the didChange history), as text edits against the editor's
// buffers. The editor shows them and applies them as an ordinary edit
// when the user accepts.
func (s *Server) nextEdit(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Position edits.Position `json:"position"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, invalidParams("textDocument.uri: %v", err)
	}
	doc := s.docs.get(path)
	if doc == nil {
		return nil, invalidParams("%s is not open: send textDocument/didOpen first", p.TextDocument.URI)
	}
	enc := s.encoding()
	cursor, err := edits.NewMapper(doc.text, enc).Offset(p.Position)
	if err != nil {
		return nil, invalidParams("position: %v", err)
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return nil, err
	}
	provider, model := a.ChatModel()
	first, chat := completion.NextEditModels(s.complete, provider, model)
	if first == nil {
		return nil, rpcError(codeRequestFailed, completion.ErrNoNextEditModel.Error())
	}
	root := s.folderOf(path)
	engine := &completion.NextEdit{
		Model:    first,
		Fallback: chat,
		Read:     s.readText,
		Related: completion.IndexRelated(func(ctx context.Context, root string) (*codeindex.Index, error) {
			pool := a.Indexes()
			if pool == nil {
				return nil, errors.New("no code index")
			}
			return s.indexes.get(ctx, pool, root)
		}, s.readText),
	}
	got, err := engine.Suggest(ctx, completion.NextEditRequest{Root: root, Path: path, Text: doc.text, Cursor: cursor, Recent: s.docs.recent()})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, rpcError(codeRequestFailed, err.Error())
	}
	out := []nextEditSuggestion{}
	for _, sg := range got {
		if now, ok := s.readText(sg.Path); !ok || now != sg.Old {
			continue // the file changed while the model thought
		}
		uri := pathToURI(sg.Path)
		if d := s.docs.get(sg.Path); d != nil {
			uri = d.uri
		}
		out = append(out, nextEditSuggestion{
			ID:             strconv.FormatUint(s.nextEditSeq.Add(1), 10),
			URI:            uri,
			Edits:          edits.TextEdits(sg.Old, sg.New, enc),
			CursorPosition: cursorAfter(sg, enc),
		})
	}
	return map[string]any{"suggestions": out}, nil
}

// cursorAfter is where the cursor goes once the suggestion is applied:
// the end of its last changed text.
func cursorAfter(sg completion.Suggestion, enc edits.Encoding) *edits.Position {
	suffix := 0
	for suffix < len(sg.Old) && suffix < len(sg.New) && sg.Old[len(sg.Old)-1-suffix] == sg.New[len(sg.New)-1-suffix] {
		suffix++
	}
	p, err := edits.NewMapper(sg.New, enc).Position(len(sg.New) - suffix)
	if err != nil {
		return nil
	}
	return &p
}

// readText is the editor's text of path: its open buffer or overlay, else
// the file on disk.
func (s *Server) readText(path string) (string, bool) {
	if t, ok := s.docs.read(path); ok {
		return t, true
	}
	b, err := os.ReadFile(path)
	return string(b), err == nil
}
