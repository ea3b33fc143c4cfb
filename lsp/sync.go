package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/completion"
)

type textDocumentItem struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
	Text    string `json:"text"`
}

// contentChange is a didChange entry. protocol v0.12.0 types Range as a
// value, which cannot tell a whole-document change from an insert at 0:0.
type contentChange struct {
	Range *edits.Range `json:"range"`
	Text  string       `json:"text"`
}

type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	} `json:"textDocument"`
	ContentChanges []contentChange `json:"contentChanges"`
}

type docParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
}

func (s *Server) didOpen(_ context.Context, params json.RawMessage) error {
	var p struct {
		TextDocument textDocumentItem `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil // untitled: and other schemes are not files the agent can reach
	}
	s.docs.put(&document{
		uri:     p.TextDocument.URI,
		path:    path,
		version: p.TextDocument.Version,
		buf:     newBuffer(p.TextDocument.Text, s.encoding()),
	})
	return nil
}

func (s *Server) didChange(_ context.Context, params json.RawMessage) error {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	found, err := s.docs.update(path, func(d *document) error {
		for i, c := range p.ContentChanges {
			if c.Range == nil {
				for _, ch := range completion.TextChanges(d.path, d.buf.String(), c.Text) {
					s.docs.history.Record(ch)
				}
				d.buf = newBuffer(c.Text, d.buf.enc)
				continue
			}
			ch, err := d.buf.change(d.path, *c.Range, c.Text)
			if err != nil {
				return fmt.Errorf("change %d (%v) does not fit version %d: %w", i, *c.Range, d.version, err)
			}
			s.docs.history.Record(ch)
		}
		d.version = p.TextDocument.Version
		if n := len(p.ContentChanges); n > 0 && p.ContentChanges[n-1].Range != nil {
			d.editLine = int(p.ContentChanges[n-1].Range.Start.Line)
		}
		s.docs.touch(d)
		return nil
	})
	if !found {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	if err != nil {
		// The buffer is out of step with the editor; forgetting it makes
		// reads fall back to disk instead of serving a corrupt text.
		s.docs.close(path)
		return fmt.Errorf("%s: %w; dropping the buffer until it is reopened", p.TextDocument.URI, err)
	}
	return nil
}

func (s *Server) didClose(_ context.Context, params json.RawMessage) error {
	var p docParams
	if err := decode(params, &p); err != nil {
		return err
	}
	if path, err := uriToPath(p.TextDocument.URI); err == nil {
		s.forgetCompletions(path)
		s.docs.close(path)
	}
	return nil
}

func (s *Server) didSave(_ context.Context, params json.RawMessage) error {
	var p docParams
	if err := decode(params, &p); err != nil {
		return err
	}
	if path, err := uriToPath(p.TextDocument.URI); err == nil {
		s.docs.dropOverlay(path)
	}
	return nil
}
