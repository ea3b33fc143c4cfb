package agent

import "github.com/tandemhq/tandem/agent/tools"

// CompactionStatus is where a compaction is (ACP's CompactionStatus).
type CompactionStatus string

const (
	CompactionRunning   CompactionStatus = "in_progress"
	CompactionDone      CompactionStatus = "completed"
	CompactionFailed    CompactionStatus = "failed"
	CompactionCancelled CompactionStatus = "cancelled"
)

// Compaction is one compaction of a session's history as the editor sees
// it: the first update (running) places it in the conversation, later
// ones with the same ID end it.
type Compaction struct {
	ID     string
	Status CompactionStatus
	// Description says what the compaction did, in a sentence (done
	// only); Summary is the summary of earlier turns the model now reads
	// instead of them, when it wrote one.
	Description string
	Summary     string
	// Error says why it failed (a failed compaction only).
	Error string
}

// wire fills compaction_update's fields: the description and summary are
// the update's summary blocks (only a completed compaction has any).
func (c *Compaction) wire(w *wireUpdate) {
	w.CompactionID, w.Status, w.Error = c.ID, ToolStatus(c.Status), c.Error
	var blocks []ContentBlock
	for _, text := range []string{c.Description, c.Summary} {
		if text != "" {
			blocks = append(blocks, ContentBlock{Type: "text", Text: text})
		}
	}
	if len(blocks) > 0 && c.Status == CompactionDone {
		w.Summary = &blocks
	}
}

// compactionOf reads a compaction_update back (from the session log).
func compactionOf(w *wireUpdate) *Compaction {
	c := &Compaction{ID: w.CompactionID, Status: CompactionStatus(w.Status), Error: w.Error}
	if w.Summary != nil {
		for i, b := range *w.Summary {
			switch i {
			case 0:
				c.Description = b.Text
			case 1:
				c.Summary = b.Text
			}
		}
	}
	return c
}

// ToolCallForm returns u as a client without a compaction entity sees it:
// a compaction_update becomes the tool call tandem showed compactions as
// before ACP had them (started when it runs, updated with what it did or
// why it failed); any other update is returned as it is.
func (u Update) ToolCallForm() Update {
	c := u.Compaction
	if u.Type != CompactionUpdated || c == nil {
		return u
	}
	tc := &ToolCall{ID: c.ID}
	switch c.Status {
	case CompactionRunning:
		tc.Title, tc.Kind, tc.Status = compactTitle, tools.KindOther, ToolInProgress
		return Update{Type: ToolCallStarted, Tool: tc}
	case CompactionDone:
		tc.Status = ToolCompleted
		if c.Description != "" {
			tc.Content = []ToolContent{TextContent(c.Description)}
		}
	case CompactionCancelled:
		tc.Status, tc.Content = ToolFailed, []ToolContent{TextContent("Compaction cancelled.")}
	default:
		tc.Status = ToolFailed
		if c.Error != "" {
			tc.Content = []ToolContent{TextContent(c.Error)}
		}
	}
	return Update{Type: ToolCallUpdated, Tool: tc}
}
