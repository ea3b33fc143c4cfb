package lsp

import (
	"context"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// noReason stands in when the editor rejects without saying why. The edit
// tools tell the model "the editor rejected the edit to <file>: <Reason>".
const noReason = "it gave no reason"

// ApplyEdit hands the change to the editor as workspace/applyEdit, so it
// lands in the editor's buffer (its undo, its unsaved state) and never on
// disk behind the editor's back. Only operations the client cannot
// perform (creating or deleting files without resource operations) are
// done on disk, and a created file is then shown with window/showDocument.
// prepare first holds the edit to the Host rules: a versioned edit lets the
// client catch a stale open buffer, but nothing would catch one to a closed
// file, whose text edits are computed against what the agent read.
func (ss *session) ApplyEdit(ctx context.Context, fe edits.FileEdit) (edits.Result, error) {
	if reason, err := ss.prepare(ctx, fe); err != nil || reason != "" {
		return edits.Result{Reason: reason}, err
	}
	s := ss.srv
	caps := s.clientCaps()
	t := editTarget{uri: pathToURI(fe.Path)}
	current := fe.Old
	if d := s.docs.get(fe.Path); d != nil {
		t.uri, t.version, current = d.uri, &d.version, d.text
	}
	// Approved edits apply directly; only one whose permission was handed
	// to the refactor preview (preview.go) asks for confirmation there.
	plan := planEdit(fe, t, current, caps, s.encoding(), ss.takePreview(fe.Path))
	switch {
	case plan.stale:
		return edits.Result{Reason: "the buffer changed in the editor since the file was read"}, nil
	case !caps.Workspace.ApplyEdit && t.version != nil:
		// Writing the disk under an open buffer would fork the file.
		return edits.Result{Reason: "this editor cannot apply workspace edits to its open buffer (it lacks workspace.applyEdit)"}, nil
	case plan.onDisk || !caps.Workspace.ApplyEdit:
		return ss.applyOnDisk(ctx, fe)
	case plan.edit == nil:
		return edits.Result{Applied: true}, nil
	}
	var res applyEditResult
	err := s.conn.call(ctx, "workspace/applyEdit", applyEditParams{Label: fe.Label, Edit: *plan.edit}, &res)
	var rerr *jsonrpc.Error
	switch {
	case errors.As(err, &rerr):
		// eglot answers a stale version with an error, not applied:false.
		return edits.Result{Reason: labelOr(rerr.Message, noReason)}, nil
	case err != nil:
		return edits.Result{}, fmt.Errorf("workspace/applyEdit for %s: %w", fe.Path, err)
	case !res.Applied:
		return edits.Result{Reason: labelOr(res.FailureReason, noReason)}, nil
	}
	switch {
	case fe.Delete:
		// The file is gone whether or not the client reports closing it.
		s.docs.forget(fe.Path)
	case t.version == nil:
		// The editor now holds the new text in a buffer it may not report
		// with didOpen; reads must see it, not the stale disk.
		s.docs.setOverlay(fe.Path, fe.New)
	}
	return edits.Result{Applied: true}, nil
}

// applyOnDisk performs what the client cannot: it writes through the local
// host (which refuses when the disk no longer matches what the agent read)
// and opens a new file in the editor when it can.
func (ss *session) applyOnDisk(ctx context.Context, fe edits.FileEdit) (edits.Result, error) {
	res, err := local.Host{Root: ss.sess.RootOf(fe.Path)}.ApplyEdit(ctx, fe)
	if err != nil || !res.Applied {
		return res, err
	}
	s := ss.srv
	if fe.Delete {
		s.docs.forget(fe.Path)
	}
	if fe.Create && s.clientCaps().Window.ShowDocument.Support {
		params := map[string]any{"uri": pathToURI(fe.Path), "takeFocus": false}
		var out struct {
			Success bool `json:"success"`
		}
		if err := s.conn.call(ctx, "window/showDocument", params, &out); err != nil {
			s.log.Info("window/showDocument failed", "path", fe.Path, "err", err)
		}
	}
	return res, nil
}
