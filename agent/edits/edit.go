// Package edits turns a file's old and new content into the shapes editors
// apply: line hunks, ACP diffs and LSP TextEdits in UTF-8 or UTF-16 code
// units. Every write the agent makes is described by a FileEdit and goes
// through agent.Host.ApplyEdit; this package computes, it never writes.
package edits

// FileEdit is one change to one file, as the agent wants it. Old is what the
// agent read (the editor's buffer when one is open); New is the whole new
// content.
type FileEdit struct {
	Path   string // absolute path inside the session root
	Old    string
	New    string
	Create bool // the file does not exist yet; Old is empty
	Delete bool // remove the file; New is empty
	// Label names the change for the editor's undo/review UI ("edit_file: main.go").
	Label string
}

// Result is what the host did with a FileEdit.
type Result struct {
	Applied bool
	// Reason is the editor's reason for a rejection, when it gave one.
	Reason string
}
