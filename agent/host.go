package agent

import (
	"context"
	"errors"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/tools"
)

// Host is everything a front door does for a session: the editor's view of
// files, applying edits, asking the user, running commands and carrying
// updates. One Host serves one session; the agent calls it from the
// session's goroutines and never assumes a protocol behind it.
//
// Every host gives files the same meaning, checked by agent/hosttest
// against the local, ACP and LSP hosts alike:
//
//   - Paths are absolute. A relative path is never guessed at: a read of
//     one fails, an edit of one is refused.
//   - ReadFile returns the editor's view: an unsaved buffer when the file is
//     open, else the disk. A file that is neither gives an error matching
//     fs.ErrNotExist. Reads are not confined to the session root (a user
//     may attach a file from elsewhere); tools.Resolve confines the model's.
//   - ApplyEdit refuses, with a Result whose Reason says why and without
//     touching anything, an edit whose Old no longer matches the host's
//     current view (the buffer, else the disk), a Create of a file that
//     exists, an edit or Delete of a file that does not, and any edit of
//     a path outside the session root. Refusals are never errors; an error
//     means the editor, the connection or the disk failed.
//   - A Create also creates the missing parent directories. An applied
//     edit is visible to the next ReadFile, wherever it landed (an editor
//     buffer or the disk); an applied Delete makes ReadFile report
//     fs.ErrNotExist.
//   - ReadFile, ApplyEdit and RunCommand honour ctx: a call made with a done
//     ctx does nothing, and a call waiting on the editor or a command
//     returns promptly once ctx ends, with an error matching ctx.Err(). An edit the editor already
//     received may still land; the next read tells.
type Host interface {
	// ReadFile returns the editor's view of path (an unsaved buffer when the
	// file is open), else the disk content. path is absolute.
	ReadFile(ctx context.Context, path string) (string, error)
	// ApplyEdit hands one change to the editor. A refusal is a Result
	// with Applied false and a Reason, not an error.
	ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error)
	// RequestPermission asks the user and blocks until they answer or ctx
	// ends. A front door whose client has no way to ask returns
	// ErrCannotAsk; it never answers on the user's behalf.
	RequestPermission(ctx context.Context, req PermissionRequest) (Decision, error)
	// RunCommand runs a shell command in the editor's terminal or locally.
	RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error)
	// Send delivers one update. Calls come in the order the session
	// produced them; Send must preserve that order on the wire and must not
	// block for long (the turn waits on it).
	Send(u Update)
}

// ErrCannotAsk is what RequestPermission returns when the editor cannot show
// a permission prompt at all. The policy then refuses whatever needed one,
// with a reason the model and the user both see.
var ErrCannotAsk = errors.New("this editor cannot show permission prompts")

// CommandSpec and CommandResult are the run_command contract.
type (
	CommandSpec   = tools.CommandSpec
	CommandResult = tools.CommandResult
)

// PermissionKind is what an option does, as ACP names it.
type PermissionKind string

const (
	AllowOnce    PermissionKind = "allow_once"
	AllowAlways  PermissionKind = "allow_always"
	RejectOnce   PermissionKind = "reject_once"
	RejectAlways PermissionKind = "reject_always"
)

// PermissionOption is one answer offered to the user.
type PermissionOption struct {
	ID   string         `json:"optionId"`
	Name string         `json:"name"`
	Kind PermissionKind `json:"kind"`
}

// PermissionRequest asks whether a tool call may go ahead. ToolCall carries
// the title, kind, locations and, for edits, the diff.
type PermissionRequest struct {
	ToolCall ToolCall
	Options  []PermissionOption
}

// Decision is the user's answer. Cancelled means the request was withdrawn
// (the prompt was cancelled); the turn ends.
type Decision struct {
	Kind      PermissionKind
	Cancelled bool
}

// DefaultPermissionOptions are the four answers every front door offers.
func DefaultPermissionOptions() []PermissionOption {
	return []PermissionOption{
		{ID: string(AllowOnce), Name: "Allow", Kind: AllowOnce},
		{ID: string(AllowAlways), Name: "Always allow", Kind: AllowAlways},
		{ID: string(RejectOnce), Name: "Reject", Kind: RejectOnce},
		{ID: string(RejectAlways), Name: "Always reject", Kind: RejectAlways},
	}
}
