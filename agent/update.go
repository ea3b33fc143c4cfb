package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/tools"
)

// UpdateType is the session/update discriminator ("sessionUpdate" in ACP).
type UpdateType string

const (
	UserMessageChunk        UpdateType = "user_message_chunk"
	AgentMessageChunk       UpdateType = "agent_message_chunk"
	AgentThoughtChunk       UpdateType = "agent_thought_chunk"
	ToolCallStarted         UpdateType = "tool_call"
	ToolCallUpdated         UpdateType = "tool_call_update"
	PlanUpdated             UpdateType = "plan"
	CurrentModeUpdate       UpdateType = "current_mode_update"
	AvailableCommandsUpdate UpdateType = "available_commands_update"
	UsageUpdated            UpdateType = "usage_update"
	SessionInfoUpdated      UpdateType = "session_info_update"
	// CompactionUpdated is ACP's unstable compaction_update; front doors
	// whose client has no compaction entity send Update.ToolCallForm.
	CompactionUpdated UpdateType = "compaction_update"
)

// Update is one streamed session event. Its JSON form is exactly the ACP
// session/update "update" object, so ACP forwards it, LSP wraps it in
// tandem/update, and the store appends it unchanged.
type Update struct {
	Type UpdateType

	// Chunk is the content of a user/agent message or thought chunk.
	Chunk *ContentBlock
	// MessageID is shared by the chunks of one message (a prompt, or one
	// model response with its thoughts); a new id starts a new message.
	MessageID string

	// Tool is set for tool_call (all fields meaningful) and tool_call_update
	// (zero fields mean "unchanged").
	Tool *ToolCall

	// Plan is the complete plan (plan updates replace the previous one).
	Plan []PlanEntry

	// ModeID is the new current mode.
	ModeID string

	// Commands are the slash commands the session offers.
	Commands []Command

	// Usage is how full the context is after a model request.
	Usage *ContextUsage

	// Info is the session's title and last activity (session_info_update).
	Info *SessionInfo

	// Nest is set on what a subagent caused; Term on a live terminal's
	// tool call updates. Both leave as _meta (update_meta.go).
	Nest *Nesting
	Term *TermMeta

	// Compaction is a compaction's progress (compaction_update).
	Compaction *Compaction
}

// SessionInfo is what a session_info_update carries.
type SessionInfo struct {
	Title     string
	UpdatedAt time.Time
}

// PlanEntry is one step of a plan.
type PlanEntry = tools.PlanEntry

// ToolStatus is a tool call's state.
type ToolStatus string

const (
	ToolPending    ToolStatus = "pending"
	ToolInProgress ToolStatus = "in_progress"
	ToolCompleted  ToolStatus = "completed"
	ToolFailed     ToolStatus = "failed"
)

// ToolCall describes a tool call or a change to one.
type ToolCall struct {
	ID    string `json:"toolCallId"`
	Title string `json:"title,omitempty"`
	// Name is the tool's model-facing name (ACP's unstable tool-call
	// name): front doors send it only to clients of the unstable schema.
	Name      string           `json:"name,omitempty"`
	Kind      tools.Kind       `json:"kind,omitempty"`
	Status    ToolStatus       `json:"status,omitempty"`
	Content   []ToolContent    `json:"content,omitempty"`
	Locations []tools.Location `json:"locations,omitempty"`
	RawInput  json.RawMessage  `json:"rawInput,omitempty"`
	RawOutput json.RawMessage  `json:"rawOutput,omitempty"`

	// Nest is set on a subagent's calls; a permission question about one
	// carries it as Meta (the updates carry Update.Nest).
	Nest *Nesting        `json:"-"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// ToolContent is one item shown inside a tool call: regular content, a
// diff, or an editor terminal.
type ToolContent struct {
	Type string `json:"type"` // "content" | "diff" | "terminal"

	Content *ContentBlock `json:"content,omitempty"` // type content

	Path    string  `json:"path,omitempty"`    // type diff
	OldText *string `json:"oldText,omitempty"` // type diff; nil for a new file
	NewText *string `json:"newText,omitempty"` // type diff

	TerminalID string `json:"terminalId,omitempty"` // type terminal
}

// TextContent wraps s as tool call content.
func TextContent(s string) ToolContent {
	return ToolContent{Type: "content", Content: &ContentBlock{Type: "text", Text: s}}
}

// DiffContent shows a file edit as a diff; edits.ACPDiff decides the
// fields (no old text for a new file, no new text for a deletion).
func DiffContent(fe edits.FileEdit) ToolContent {
	path, old, new := edits.ACPDiff(fe)
	return ToolContent{Type: "diff", Path: path, OldText: old, NewText: &new}
}

// Command is a slash command a session offers.
type Command struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Input       *CommandInput `json:"input,omitempty"`
}

// CommandInput hints at the argument a command takes.
type CommandInput struct {
	Hint string `json:"hint"`
}

// ContentBlock is a piece of a prompt or message, in ACP's shape.
type ContentBlock struct {
	Type string `json:"type"` // text | image | resource_link | resource

	Text string `json:"text,omitempty"`

	MimeType string `json:"mimeType,omitempty"` // image, resource_link
	Data     string `json:"data,omitempty"`     // image: base64

	URI  string `json:"uri,omitempty"`  // resource_link, image (optional)
	Name string `json:"name,omitempty"` // resource_link

	Resource *EmbeddedResource `json:"resource,omitempty"` // resource
}

// EmbeddedResource is the content of a "resource" block.
type EmbeddedResource struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// wireUpdate is Update's JSON form. "content" is a single block for chunks
// and a list for tool calls, hence a field of any type: encoding puts the
// block or list there as it is (encoding it apart first, as a raw
// message, copied a tool result's text twice more and scanned it once
// more), decoding a *json.RawMessage to read once the type is known.
type wireUpdate struct {
	SessionUpdate UpdateType `json:"sessionUpdate"`
	ToolCallID    string     `json:"toolCallId,omitempty"`
	Title         string     `json:"title,omitempty"`
	Name          string     `json:"name,omitempty"`
	Kind          tools.Kind `json:"kind,omitempty"`
	Status        ToolStatus `json:"status,omitempty"`

	Content   any              `json:"content,omitempty"`
	Locations []tools.Location `json:"locations,omitempty"`
	RawInput  json.RawMessage  `json:"rawInput,omitempty"`
	RawOutput json.RawMessage  `json:"rawOutput,omitempty"`

	// Pointers, so an empty plan or command list is still sent as [].
	Entries           *[]PlanEntry `json:"entries,omitempty"`
	CurrentModeID     string       `json:"currentModeId,omitempty"`
	AvailableCommands *[]Command   `json:"availableCommands,omitempty"`

	MessageID string `json:"messageId,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"` // session_info_update, RFC 3339

	Used *int  `json:"used,omitempty"` // usage_update; pointers so 0 is sent
	Size *int  `json:"size,omitempty"`
	Cost *Cost `json:"cost,omitempty"`

	CompactionID string          `json:"compactionId,omitempty"` // compaction_update
	Summary      *[]ContentBlock `json:"summary,omitempty"`
	Error        string          `json:"error,omitempty"`

	Meta json.RawMessage `json:"_meta,omitempty"` // Nest and Term
}

// MarshalJSON writes the ACP session/update shape. A text chunk, the bulk
// of a stream, is written directly (textChunkJSON); the rest through
// reflection.
func (u Update) MarshalJSON() ([]byte, error) {
	if b, ok := textChunkJSON(u); ok {
		return b, nil
	}
	return u.marshalWire()
}

// marshalWire writes u through wireUpdate, the one definition of the
// shape, which textChunkJSON's bytes must equal.
func (u Update) marshalWire() ([]byte, error) {
	w := wireUpdate{SessionUpdate: u.Type}
	var err error
	switch u.Type {
	case UserMessageChunk, AgentMessageChunk, AgentThoughtChunk:
		if u.Chunk == nil {
			return nil, fmt.Errorf("agent: %s update without content", u.Type)
		}
		w.MessageID = u.MessageID
		w.Content = u.Chunk
	case ToolCallStarted, ToolCallUpdated:
		if u.Tool == nil {
			return nil, fmt.Errorf("agent: %s update without a tool call", u.Type)
		}
		t := u.Tool
		w.ToolCallID, w.Title, w.Name, w.Kind, w.Status = t.ID, t.Title, t.Name, t.Kind, t.Status
		w.Locations, w.RawInput, w.RawOutput = t.Locations, t.RawInput, t.RawOutput
		if t.Content != nil {
			w.Content = t.Content
		}
	case PlanUpdated:
		// ACP requires a priority on every entry; logs written before
		// update_plan filled it in still replay valid plans.
		plan := make([]PlanEntry, len(u.Plan))
		for i, e := range u.Plan {
			if e.Priority == "" {
				e.Priority = "medium"
			}
			plan[i] = e
		}
		w.Entries = &plan
	case CurrentModeUpdate:
		w.CurrentModeID = u.ModeID
	case AvailableCommandsUpdate:
		cmds := u.Commands
		if cmds == nil {
			cmds = []Command{}
		}
		w.AvailableCommands = &cmds
	case UsageUpdated:
		if u.Usage == nil {
			return nil, fmt.Errorf("agent: %s update without usage", u.Type)
		}
		w.Used, w.Size, w.Cost = &u.Usage.Used, &u.Usage.Size, u.Usage.Cost
	case SessionInfoUpdated:
		if u.Info == nil {
			return nil, fmt.Errorf("agent: %s update without info", u.Type)
		}
		w.Title, w.UpdatedAt = u.Info.Title, u.Info.UpdatedAt.UTC().Format(time.RFC3339)
	case CompactionUpdated:
		if u.Compaction == nil {
			return nil, fmt.Errorf("agent: %s update without a compaction", u.Type)
		}
		u.Compaction.wire(&w)
	default:
		return nil, fmt.Errorf("agent: unknown update type %q", u.Type)
	}
	if err != nil {
		return nil, err
	}
	if w.Meta, err = encodeMeta(u.Nest, u.Term); err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads the ACP session/update shape.
func (u *Update) UnmarshalJSON(b []byte) error {
	var content json.RawMessage
	w := wireUpdate{Content: &content}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = Update{Type: w.SessionUpdate}
	u.Nest, u.Term = decodeMeta(w.Meta)
	switch w.SessionUpdate {
	case UserMessageChunk, AgentMessageChunk, AgentThoughtChunk:
		u.MessageID = w.MessageID
		u.Chunk = new(ContentBlock)
		if len(content) > 0 {
			return json.Unmarshal(content, u.Chunk)
		}
	case ToolCallStarted, ToolCallUpdated:
		u.Tool = &ToolCall{ID: w.ToolCallID, Title: w.Title, Name: w.Name, Kind: w.Kind, Status: w.Status,
			Locations: w.Locations, RawInput: w.RawInput, RawOutput: w.RawOutput}
		if len(content) > 0 {
			return json.Unmarshal(content, &u.Tool.Content)
		}
	case PlanUpdated:
		if w.Entries != nil {
			u.Plan = *w.Entries
		}
	case CurrentModeUpdate:
		u.ModeID = w.CurrentModeID
	case AvailableCommandsUpdate:
		if w.AvailableCommands != nil {
			u.Commands = *w.AvailableCommands
		}
	case UsageUpdated:
		u.Usage = &ContextUsage{Cost: w.Cost}
		if w.Used != nil {
			u.Usage.Used = *w.Used
		}
		if w.Size != nil {
			u.Usage.Size = *w.Size
		}
	case SessionInfoUpdated:
		u.Info = &SessionInfo{Title: w.Title}
		if w.UpdatedAt != "" {
			t, err := time.Parse(time.RFC3339, w.UpdatedAt)
			if err != nil {
				return fmt.Errorf("agent: session_info_update: %w", err)
			}
			u.Info.UpdatedAt = t
		}
	case CompactionUpdated:
		u.Compaction = compactionOf(&w)
	default:
		return fmt.Errorf("agent: unknown update type %q", w.SessionUpdate)
	}
	return nil
}
