package sdk

import "context"

// Host calls that act on the session rather than on files. Each is gated
// by a permission; the plugin's file permission also covers ApplyEdit.
const (
	// HostApplyEdit changes a file through the editor (ACP
	// fs/write_text_file, LSP workspace/applyEdit), so its undo and review
	// see the change. permissions.filesystem must cover the path.
	HostApplyEdit = "host/applyEdit"
	// HostMarker writes a named marker into the conversation.
	// permissions.task.
	HostMarker = "host/marker"
	// HostRewind rewinds the conversation to a marker. permissions.task.
	HostRewind = "host/rewind"
	// HostDeliver hands the model a message with the next prompt.
	// permissions.agent.
	HostDeliver = "host/deliver"
)

// DeliverParams: a message for the model, sent with the user's next
// prompt (before it). The user does not see it.
type DeliverParams struct {
	Text string `json:"text"`
}

// Deliver hands the model a message with the next prompt.
func (h *Host) Deliver(ctx context.Context, text string) error {
	return h.conn.Call(ctx, HostDeliver, DeliverParams{Text: text}, nil)
}

// HookTimelineRewind is the observing hook sent after the conversation
// was rewound to a marker (by any plugin).
const HookTimelineRewind = "timelineRewind"

// ApplyEditParams set a file's content through the editor, or delete it.
// Expect, when set, is the content the plugin believes the file has now:
// the edit is refused if the file (its open buffer, else the disk) says
// otherwise, so a change the user made since is never overwritten.
type ApplyEditParams struct {
	Path    string  `json:"path"` // absolute, or relative to the session root
	Content string  `json:"content"`
	Delete  bool    `json:"delete,omitempty"`
	Expect  *string `json:"expect,omitempty"`
	Label   string  `json:"label,omitempty"` // for the editor's undo/review
}

// ApplyEditResult says whether the editor applied the edit, and if not why.
type ApplyEditResult struct {
	Applied bool   `json:"applied"`
	Reason  string `json:"reason,omitempty"`
}

// MarkerParams name a marker. Written while a turn runs, it marks the
// point just before that turn's prompt; between turns, the end of the
// conversation. A second marker of the same name moves it.
type MarkerParams struct {
	Name string `json:"name"`
}

// RewindParams name the marker to rewind the conversation to. During a
// turn the rewind takes effect when the turn ends.
type RewindParams struct {
	Marker string `json:"marker"`
}

// TimelineRewindParams: the conversation went back to a marker; Removed
// is how many model messages were dropped.
type TimelineRewindParams struct {
	SessionID string `json:"sessionId"`
	Marker    string `json:"marker"`
	Removed   int    `json:"removed"`
}

// ApplyEdit changes a file through the editor.
func (h *Host) ApplyEdit(ctx context.Context, p ApplyEditParams) (ApplyEditResult, error) {
	var r ApplyEditResult
	err := h.conn.Call(ctx, HostApplyEdit, p, &r)
	return r, err
}

// Marker writes a marker into the conversation.
func (h *Host) Marker(ctx context.Context, name string) error {
	return h.conn.Call(ctx, HostMarker, MarkerParams{Name: name}, nil)
}

// Rewind rewinds the conversation to a marker.
func (h *Host) Rewind(ctx context.Context, marker string) error {
	return h.conn.Call(ctx, HostRewind, RewindParams{Marker: marker}, nil)
}
