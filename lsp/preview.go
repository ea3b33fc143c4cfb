package lsp

import (
	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/tools"
)

// An edit that asks is reviewed once. By default the permission prompt is
// the review and the approved edit applies directly. A client declaring
// experimental.tandem.previewEdits reviews edits in its own refactor
// preview instead: the permission for an edit is granted without a prompt
// and the workspace edit that follows carries needsConfirmation, so the
// user accepts or discards it there (a discard reaches the model as a
// rejected edit).

// previewInstead reports whether the permission for tc is answered by the
// refactor preview, and if so remembers the paths whose next edit must be
// sent for review.
func (ss *session) previewInstead(tc agent.ToolCall) bool {
	if !ss.srv.clientCaps().Experimental.Tandem.PreviewEdits || tc.Kind != tools.KindEdit {
		return false
	}
	var paths []string
	for _, c := range tc.Content {
		if c.Type != "diff" || c.Path == "" {
			return false // not a plain edit: only a prompt can show it
		}
		paths = append(paths, c.Path)
	}
	if len(paths) == 0 {
		return false
	}
	ss.previewMu.Lock()
	defer ss.previewMu.Unlock()
	if ss.preview == nil {
		ss.preview = map[string]bool{}
	}
	for _, p := range paths {
		ss.preview[p] = true
	}
	return true
}

// takePreview reports whether the edit to path goes to the refactor
// preview, and forgets it: one permission, one reviewed edit.
func (ss *session) takePreview(path string) bool {
	ss.previewMu.Lock()
	defer ss.previewMu.Unlock()
	ok := ss.preview[path]
	delete(ss.preview, path)
	return ok
}
