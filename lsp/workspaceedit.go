package lsp

import (
	"github.com/tandemhq/tandem/agent/edits"
)

// The WorkspaceEdit wire shapes. protocol v0.12.0 types documentChanges as
// []TextDocumentEdit, which cannot carry create/rename/delete operations,
// and has no annotationId on text edits; these can.

type workspaceEdit struct {
	Changes           map[string][]textEdit       `json:"changes,omitempty"`
	DocumentChanges   []any                       `json:"documentChanges,omitempty"` // textDocumentEdit | createFile | deleteFile
	ChangeAnnotations map[string]changeAnnotation `json:"changeAnnotations,omitempty"`
}

// textEdit is a TextEdit, or an AnnotatedTextEdit when AnnotationID is set.
type textEdit struct {
	Range        edits.Range `json:"range"`
	NewText      string      `json:"newText"`
	AnnotationID string      `json:"annotationId,omitempty"`
}

// versionedDoc is an OptionalVersionedTextDocumentIdentifier: Version is
// null for a document the client has not opened.
type versionedDoc struct {
	URI     string `json:"uri"`
	Version *int32 `json:"version"`
}

type textDocumentEdit struct {
	TextDocument versionedDoc `json:"textDocument"`
	Edits        []textEdit   `json:"edits"`
}

type fileOptions struct {
	Overwrite         bool `json:"overwrite,omitempty"`
	IgnoreIfExists    bool `json:"ignoreIfExists,omitempty"`
	IgnoreIfNotExists bool `json:"ignoreIfNotExists,omitempty"`
}

type createFile struct {
	Kind         string       `json:"kind"` // "create"
	URI          string       `json:"uri"`
	Options      *fileOptions `json:"options,omitempty"`
	AnnotationID string       `json:"annotationId,omitempty"`
}

type deleteFile struct {
	Kind         string       `json:"kind"` // "delete"
	URI          string       `json:"uri"`
	Options      *fileOptions `json:"options,omitempty"`
	AnnotationID string       `json:"annotationId,omitempty"`
}

type changeAnnotation struct {
	Label             string `json:"label"`
	NeedsConfirmation bool   `json:"needsConfirmation"`
	Description       string `json:"description,omitempty"`
}

type applyEditParams struct {
	Label string        `json:"label,omitempty"`
	Edit  workspaceEdit `json:"edit"`
}

// applyEditResult reads the client's answer; FailedChange is a pointer
// because 0 (the first change) is a meaningful index.
type applyEditResult struct {
	Applied       bool    `json:"applied"`
	FailureReason string  `json:"failureReason,omitempty"`
	FailedChange  *uint32 `json:"failedChange,omitempty"`
}

// editPlan is how one FileEdit reaches the editor.
type editPlan struct {
	// edit is the workspace/applyEdit to send; nil when nothing is sent.
	edit *workspaceEdit
	// onDisk: the client cannot perform the operation (no create or
	// delete resource operations), so tandem does it on disk and, for a
	// new file, opens it with window/showDocument.
	onDisk bool
	// stale: the open buffer no longer holds what the agent read.
	stale bool
}

// editTarget is what the client holds for the file being edited.
type editTarget struct {
	uri     string
	version *int32 // the open buffer's version; nil when not open
}

const reviewAnnotation = "tandem"

// planEdit decides the workspace edit for fe. current is the editor's text
// for the file (the open buffer, else what the agent read); review asks
// the client to confirm each change when it supports annotations.
func planEdit(fe edits.FileEdit, t editTarget, current string, caps *clientCaps, enc edits.Encoding, review bool) editPlan {
	docChanges := caps.Workspace.WorkspaceEdit.DocumentChanges
	annotate := review && caps.Workspace.WorkspaceEdit.ChangeAnnotationSupport != nil
	var ann string
	we := &workspaceEdit{}
	if annotate {
		ann = reviewAnnotation
		we.ChangeAnnotations = map[string]changeAnnotation{ann: {
			Label: labelOr(fe.Label, "tandem edit"), NeedsConfirmation: true,
			Description: "Proposed by the tandem agent",
		}}
	}
	switch {
	case fe.Delete:
		if !caps.resourceOp("delete") {
			return editPlan{onDisk: true}
		}
		we.DocumentChanges = []any{deleteFile{Kind: "delete", URI: t.uri, AnnotationID: ann}}
		return editPlan{edit: we}
	case fe.Create:
		if !caps.resourceOp("create") {
			return editPlan{onDisk: true}
		}
		// Neovim 0.7.2 handles documentChanges whenever it lists resource
		// operations, even without the documentChanges flag.
		ops := []any{createFile{Kind: "create", URI: t.uri, AnnotationID: ann}}
		if fe.New != "" {
			ops = append(ops, textDocumentEdit{
				TextDocument: versionedDoc{URI: t.uri},
				Edits:        []textEdit{{NewText: fe.New, AnnotationID: ann}},
			})
		}
		we.DocumentChanges = ops
		return editPlan{edit: we}
	}
	if t.version != nil && current != fe.Old {
		return editPlan{stale: true}
	}
	tes := edits.TextEdits(fe.Old, fe.New, enc)
	if len(tes) == 0 {
		return editPlan{}
	}
	out := make([]textEdit, len(tes))
	for i, e := range tes {
		out[i] = textEdit{Range: e.Range, NewText: e.NewText}
	}
	if !docChanges {
		// Without documentChanges there are no versions and no annotations.
		we.ChangeAnnotations = nil
		we.Changes = map[string][]textEdit{t.uri: out}
		return editPlan{edit: we}
	}
	for i := range out {
		out[i].AnnotationID = ann
	}
	we.DocumentChanges = []any{textDocumentEdit{
		TextDocument: versionedDoc{URI: t.uri, Version: t.version},
		Edits:        out,
	}}
	return editPlan{edit: we}
}

func labelOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
