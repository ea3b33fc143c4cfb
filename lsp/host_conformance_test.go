package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/hosttest"
	"github.com/tandemhq/tandem/internal/testenv"
	"github.com/tandemhq/tandem/lsp"
)

// nvim is a scripted LSP client that handles workspace/applyEdit the way
// Neovim does: createFile makes the parent directories and an empty file,
// a text edit to a file it has not opened loads it into a hidden buffer
// (the disk keeps the old text; no didOpen), an edit to an open buffer is
// checked against its version and reported back with didChange, and
// deleteFile removes the file and closes its buffer.
type nvim struct {
	t     *testing.T
	peer  *testenv.Peer
	stall testenv.Stall

	mu   sync.Mutex // guards bufs
	bufs map[string]*nvimBuf
}

type nvimBuf struct {
	version  int
	text     string
	attached bool // opened with didOpen: changes are reported
}

func (n *nvim) handle(method string, params json.RawMessage) (any, *testenv.RPCError) {
	switch method {
	case "workspace/applyEdit":
		n.stall.Wait()
		var p wireApplyEdit
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &testenv.RPCError{Code: -32602, Message: err.Error()}
		}
		if err := n.apply(p); err != nil {
			return map[string]any{"applied": false, "failureReason": err.Error()}, nil
		}
		return map[string]any{"applied": true}, nil
	case "window/showDocument":
		return map[string]bool{"success": true}, nil
	}
	return nil, nil
}

func (n *nvim) apply(p wireApplyEdit) error {
	for _, dc := range p.Edit.DocumentChanges {
		var err error
		switch dc.Kind {
		case "create":
			err = n.create(dc.URI)
		case "delete":
			err = n.delete(dc.URI)
		case "":
			err = n.edit(dc.TextDocument.URI, dc.TextDocument.Version, dc.Edits)
		default:
			return errors.New("unsupported resource operation " + dc.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func uriPath(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return u
	}
	return parsed.Path
}

func (n *nvim) create(uri string) error {
	path := uriPath(uri)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, nil, 0o644)
}

func (n *nvim) delete(uri string) error {
	path := uriPath(uri)
	if err := os.Remove(path); err != nil {
		return err
	}
	n.mu.Lock()
	b := n.bufs[path]
	delete(n.bufs, path)
	n.mu.Unlock()
	if b != nil && b.attached {
		return n.peer.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}})
	}
	return nil
}

func (n *nvim) edit(uri string, version *int, es []wireEdit) error {
	path := uriPath(uri)
	n.mu.Lock()
	b := n.bufs[path]
	if b == nil {
		data, err := os.ReadFile(path)
		if err != nil {
			n.mu.Unlock()
			return err
		}
		b = &nvimBuf{text: string(data)}
		n.bufs[path] = b
	}
	if b.attached && version != nil && *version != b.version {
		n.mu.Unlock()
		return errors.New("the buffer's version changed")
	}
	text, err := applyEdits(b.text, es, "utf-16")
	if err != nil {
		n.mu.Unlock()
		return err
	}
	b.text = text
	b.version++
	attached, v := b.attached, b.version
	n.mu.Unlock()
	if !attached {
		return nil
	}
	return n.peer.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(path), "version": v},
		"contentChanges": []map[string]string{{"text": text}},
	})
}

// setBuffer opens path as Neovim would (didOpen with the disk's text) and
// types text into it without saving.
func (n *nvim) setBuffer(t *testing.T, path, text string) {
	data, _ := os.ReadFile(path)
	n.mu.Lock()
	n.bufs[path] = &nvimBuf{version: 2, text: text, attached: true}
	n.mu.Unlock()
	must(t, n.peer.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "text", "version": 1, "text": string(data)}}))
	must(t, n.peer.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(path), "version": 2},
		"contentChanges": []map[string]string{{"text": text}}}))
	// The server handles notifications in order before it reads the next
	// message, so any answered request means both have landed.
	_ = n.peer.Call("tandemtest/sync", nil, nil)
}

// TestHostConformance runs the Host suite against the LSP host, reached
// through Server.Serve over a pipe to the scripted client: once as Neovim
// (resource operations: the client creates and deletes files) and once as a
// client without them (Helix: tandem does those on disk).
func TestHostConformance(t *testing.T) {
	workspace := map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{
		"documentChanges": true, "resourceOperations": []string{"create", "delete"}}}
	t.Run("neovim", func(t *testing.T) {
		hosttest.Run(t, startNvim(t, map[string]any{"workspace": workspace,
			"window": map[string]any{"showDocument": map[string]bool{"support": true}}}))
	})
	t.Run("no resource operations", func(t *testing.T) {
		hosttest.Run(t, startNvim(t, map[string]any{"workspace": map[string]any{"applyEdit": true,
			"workspaceEdit": map[string]any{"documentChanges": true}}}))
	})
}

// startNvim serves LSP to a scripted client declaring caps and returns the
// host of the session it opened.
func startNvim(t *testing.T, caps map[string]any) hosttest.Harness {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	a, caught := hosttest.CatchingAgent(t)
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- lsp.NewServer(lsp.Options{Agent: a}).Serve(context.Background(), toServer, fromServer)
		fromServer.Close()
	}()
	n := &nvim{t: t, bufs: map[string]*nvimBuf{}}
	n.peer = testenv.NewPeer(t, clientIn, clientOut, testenv.ContentLength, n.handle)
	t.Cleanup(func() {
		n.peer.Call("shutdown", nil, nil)
		n.peer.Notify("exit", nil)
		n.peer.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	must(t, n.peer.Call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(root), "capabilities": caps,
		"workspaceFolders": []map[string]string{{"uri": fileURI(root), "name": "root"}}}, nil))
	must(t, n.peer.Notify("initialized", map[string]any{}))
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	must(t, n.peer.Call("tandem/newSession", map[string]any{}, &ns))
	go n.peer.Call("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "catch"}}}, nil)
	host := hosttest.Caught(t, caught)
	return hosttest.Harness{Host: host, Root: root, Outside: outside, SetBuffer: n.setBuffer, Stall: n.stall.Arm}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
