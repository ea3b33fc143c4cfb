package lsp

import (
	"encoding/json"
	"slices"

	"github.com/tandemhq/tandem/agent/edits"
)

// clientCaps is the part of the client's capabilities tandem acts on. We
// decode our own struct because protocol v0.12.0 predates
// general.positionEncodings and types several of these fields loosely.
type clientCaps struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
	Workspace struct {
		ApplyEdit     bool `json:"applyEdit"`
		WorkspaceEdit struct {
			DocumentChanges         bool     `json:"documentChanges"`
			ResourceOperations      []string `json:"resourceOperations"`
			ChangeAnnotationSupport *struct {
				GroupsOnLabel bool `json:"groupsOnLabel"`
			} `json:"changeAnnotationSupport"`
		} `json:"workspaceEdit"`
	} `json:"workspace"`
	Window struct {
		WorkDoneProgress bool            `json:"workDoneProgress"`
		ShowMessage      json.RawMessage `json:"showMessage"`
		ShowDocument     struct {
			Support bool `json:"support"`
		} `json:"showDocument"`
	} `json:"window"`
	Experimental struct {
		Tandem struct {
			Permissions bool `json:"permissions"`
			// PreviewEdits: the client reviews edits in its refactor
			// preview rather than a permission prompt (preview.go).
			PreviewEdits bool `json:"previewEdits"`
			// TerminalOutput: the client shows a command's output while
			// it runs, from tool_call_update's _meta.terminal_output (as
			// ACP clients that send _meta.terminal_output do).
			TerminalOutput bool `json:"terminalOutput"`
		} `json:"tandem"`
	} `json:"experimental"`
}

// encoding picks the position encoding: UTF-8 when the client offers it
// (no conversion at all), else UTF-16, which every client must support.
func (c *clientCaps) encoding() (edits.Encoding, string) {
	if slices.Contains(c.General.PositionEncodings, "utf-8") {
		return edits.UTF8, "utf-8"
	}
	return edits.UTF16, "utf-16"
}

func (c *clientCaps) resourceOp(kind string) bool {
	return slices.Contains(c.Workspace.WorkspaceEdit.ResourceOperations, kind)
}

// showMessageRequest reports whether window/showMessageRequest may be sent.
// Clients that cannot answer it (Helix) do not declare window.showMessage.
func (c *clientCaps) showMessageRequest() bool {
	return len(c.Window.ShowMessage) > 0 && string(c.Window.ShowMessage) != "null"
}
