package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/completion"
	"github.com/tandemhq/tandem/internal/fileuri"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// The unstable nes/* methods of ACP 1.21 (next-edit suggestions) and the
// document/* notifications that feed them. Only a client that declared
// the nes capability hears of them in initialize; the handlers answer
// whoever calls, as session/fork does. A NES session is the documents the
// client reports and their recent edits; nes/suggest runs the next-edit
// engine on them (completion/nextedit.go).

// nesSession is one nes/start's state. Its fields are set once; docs
// guards itself, ixMu the index the session holds.
type nesSession struct {
	id     string
	root   string // the workspace folder, "" when the client named none
	docs   nesDocs
	ctx    context.Context // ends at nes/close or with the connection
	cancel context.CancelFunc

	ixMu    sync.Mutex // guards ix and release
	ix      *codeindex.Index
	release func()
}

// nesState is the connection's NES sessions.
type nesState struct {
	mu       sync.Mutex // guards sessions and seq
	sessions map[string]*nesSession
	seq      uint64 // numbers sessions and suggestions
}

func (n *nesState) next() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.seq++
	return strconv.FormatUint(n.seq, 10)
}

func (s *server) nesSession(id sdk.SessionId) (*nesSession, error) {
	s.nes.mu.Lock()
	defer s.nes.mu.Unlock()
	if ns := s.nes.sessions[string(id)]; ns != nil {
		return ns, nil
	}
	return nil, unknownSession(id)
}

// StartNes handles nes/start.
func (s *server) StartNes(_ context.Context, p sdk.UnstableStartNesRequest) (sdk.UnstableStartNesResponse, error) {
	root := ""
	uri := ""
	if p.WorkspaceUri != nil {
		uri = *p.WorkspaceUri
	} else if len(p.WorkspaceFolders) > 0 {
		uri = p.WorkspaceFolders[0].Uri
	}
	if uri != "" {
		path, err := fileuri.ToPath(uri)
		if err != nil {
			return sdk.UnstableStartNesResponse{}, invalidParams("workspace %q: %v", uri, err)
		}
		root = path
		if r, err := filepath.EvalSymlinks(path); err == nil {
			root = r
		}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	ns := &nesSession{id: "nes-" + s.nes.next(), root: root, ctx: ctx, cancel: cancel}
	s.nes.mu.Lock()
	if s.nes.sessions == nil {
		s.nes.sessions = map[string]*nesSession{}
	}
	s.nes.sessions[ns.id] = ns
	s.nes.mu.Unlock()
	return sdk.UnstableStartNesResponse{SessionId: sdk.SessionId(ns.id)}, nil
}

// CloseNes handles nes/close: suggestions still running are cancelled.
func (s *server) CloseNes(_ context.Context, p sdk.UnstableCloseNesRequest) (sdk.UnstableCloseNesResponse, error) {
	ns, err := s.nesSession(p.SessionId)
	if err != nil {
		return sdk.UnstableCloseNesResponse{}, err
	}
	s.nes.mu.Lock()
	delete(s.nes.sessions, ns.id)
	s.nes.mu.Unlock()
	ns.close()
	return sdk.UnstableCloseNesResponse{}, nil
}

func (ns *nesSession) close() {
	ns.cancel()
	ns.ixMu.Lock()
	defer ns.ixMu.Unlock()
	if ns.release != nil {
		ns.release()
		ns.ix, ns.release = nil, nil
	}
}

// closeNes ends every NES session (the connection ended).
func (s *server) closeNes() {
	s.nes.mu.Lock()
	all := s.nes.sessions
	s.nes.sessions = nil
	s.nes.mu.Unlock()
	for _, ns := range all {
		ns.close()
	}
}

// index returns the session's code index, acquired on first use and held
// until nes/close.
func (ns *nesSession) index(pool *codeindex.Pool) func(context.Context, string) (*codeindex.Index, error) {
	return func(ctx context.Context, root string) (*codeindex.Index, error) {
		if pool == nil {
			return nil, errors.New("no code index")
		}
		ns.ixMu.Lock()
		defer ns.ixMu.Unlock()
		if ns.ix == nil {
			if ns.ctx.Err() != nil {
				return nil, ns.ctx.Err()
			}
			ix, release, err := pool.Acquire(ctx, root)
			if err != nil {
				return nil, err
			}
			ns.ix, ns.release = ix, release
		}
		return ns.ix, nil
	}
}

// SuggestNes handles nes/suggest: edit suggestions for the documents the
// session knows, none when there is nothing to follow.
func (s *server) SuggestNes(ctx context.Context, p sdk.UnstableSuggestNesRequest) (sdk.UnstableSuggestNesResponse, error) {
	none := sdk.UnstableSuggestNesResponse{Suggestions: []sdk.UnstableNesSuggestion{}}
	ns, err := s.nesSession(p.SessionId)
	if err != nil {
		return none, err
	}
	path, err := fileuri.ToPath(p.Uri)
	if err != nil {
		return none, invalidParams("uri %q: %v", p.Uri, err)
	}
	text, _, ok := ns.docs.get(path)
	if !ok {
		return none, invalidParams("%s is not open in NES session %s: send document/didOpen first", p.Uri, ns.id)
	}
	cursor, err := edits.NewMapper(text, edits.UTF16).Offset(nesPos(p.Position))
	if err != nil {
		return none, invalidParams("position: %v", err)
	}
	a, err := s.agentFor(ctx)
	if err != nil {
		return none, err
	}
	provider, model := a.ChatModel()
	first, fallback := completion.NextEditModels(s.completion, provider, model)
	if first == nil {
		return none, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: completion.ErrNoNextEditModel.Error()}
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(ns.ctx, stop)()
	root := ns.root
	if root == "" {
		root = filepath.Dir(path)
	}
	read := func(p string) (string, bool) {
		if t, _, ok := ns.docs.get(p); ok {
			return t, true
		}
		return readDisk(p)
	}
	engine := &completion.NextEdit{
		Model:    first,
		Fallback: fallback,
		Read:     read,
		Related:  completion.IndexRelated(ns.index(a.Indexes()), read),
	}
	got, err := engine.Suggest(ctx, completion.NextEditRequest{Root: root, Path: path, Text: text, Cursor: cursor, Recent: ns.docs.recent()})
	if err != nil {
		return none, toRequestError(err)
	}
	for _, sg := range got {
		if now, ok := read(sg.Path); !ok || now != sg.Old {
			continue // changed while the model answered
		}
		uri := fileuri.FromPath(sg.Path)
		if _, u, ok := ns.docs.get(sg.Path); ok {
			uri = u
		}
		var es []sdk.UnstableNesTextEdit
		for _, e := range edits.TextEdits(sg.Old, sg.New, edits.UTF16) {
			es = append(es, sdk.UnstableNesTextEdit{Range: sdk.UnstableRange{
				Start: sdk.UnstablePosition{Line: int(e.Range.Start.Line), Character: int(e.Range.Start.Character)},
				End:   sdk.UnstablePosition{Line: int(e.Range.End.Line), Character: int(e.Range.End.Character)},
			}, NewText: e.NewText})
		}
		none.Suggestions = append(none.Suggestions, sdk.UnstableNesSuggestion{Edit: &sdk.UnstableNesSuggestionEdit{
			Id: ns.id + "-" + s.nes.next(), Kind: "edit", Uri: uri, Edits: es,
		}})
	}
	return none, nil
}

// AcceptNes and RejectNes handle nes/accept and nes/reject. The editor
// applies an accepted edit itself (and reports it with document/didChange,
// which is all the engine follows), so both only check the session.
func (s *server) AcceptNes(_ context.Context, p sdk.UnstableAcceptNesNotification) (any, error) {
	_, err := s.nesSession(p.SessionId)
	return nil, err
}

func (s *server) RejectNes(_ context.Context, p sdk.UnstableRejectNesNotification) (any, error) {
	_, err := s.nesSession(p.SessionId)
	return nil, err
}

// didOpenDocument is document/didOpen's params. The SDK's type refuses an
// empty text, which an empty file has.
type didOpenDocument struct {
	SessionID sdk.SessionId `json:"sessionId"`
	URI       string        `json:"uri"`
	Text      string        `json:"text"`
}

// The document/* notifications. Errors are dropped (nobody to answer).
func (s *server) DidOpenDocument(_ context.Context, p didOpenDocument) (any, error) {
	ns, path, err := s.nesDoc(p.SessionID, p.URI)
	if err == nil {
		ns.docs.put(path, p.URI, p.Text)
	}
	return nil, err
}

func (s *server) DidChangeDocument(_ context.Context, p sdk.UnstableDidChangeDocumentNotification) (any, error) {
	ns, path, err := s.nesDoc(p.SessionId, p.Uri)
	if err == nil && !ns.docs.change(path, p.ContentChanges) {
		s.log.Warn("document/didChange does not fit the document; dropped until it is opened again", "uri", p.Uri)
	}
	return nil, err
}

func (s *server) DidCloseDocument(_ context.Context, p sdk.UnstableDidCloseDocumentNotification) (any, error) {
	ns, path, err := s.nesDoc(p.SessionId, p.Uri)
	if err == nil {
		ns.docs.close(path)
	}
	return nil, err
}

// DidSaveDocument and DidFocusDocument change nothing the engine uses.
func (s *server) DidSaveDocument(context.Context, sdk.UnstableDidSaveDocumentNotification) (any, error) {
	return nil, nil
}

func (s *server) DidFocusDocument(context.Context, sdk.UnstableDidFocusDocumentNotification) (any, error) {
	return nil, nil
}

func (s *server) nesDoc(id sdk.SessionId, uri string) (*nesSession, string, error) {
	ns, err := s.nesSession(id)
	if err != nil {
		return nil, "", err
	}
	path, err := fileuri.ToPath(uri)
	if err != nil {
		return nil, "", invalidParams("uri %q: %v", uri, err)
	}
	return ns, path, nil
}

func readDisk(path string) (string, bool) {
	b, err := os.ReadFile(path)
	return string(b), err == nil
}
