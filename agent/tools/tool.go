// Package tools holds the tool registry and the built-in tools the model
// calls: one file per tool, its model-facing description beside it.
//
// A built-in tool is a Spec: a function over a typed arguments struct. New
// derives the JSON schema the model sees from that struct's tags (json name
// and omitempty for optional, jsonschema for the description, enum for
// allowed values), and checks and decodes every call against it, so no tool
// holds a hand-written schema or decodes its own arguments. Arguments that
// do not fit come back to the model as an error result naming the field.
// Tools from MCP servers (package mcp) implement the same Tool interface
// with the schema their server sent, kept as raw JSON: the server, not
// tandem, validates those.
//
// A tool never talks to an editor protocol. It resolves paths against the
// session root (refusing escapes before anything else), asks for permission
// through Env.Ask when its group requires it, and reaches files and commands
// only through Env.Host, so every write is an edits.FileEdit the editor sees.
package tools

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/codeindex"
)

// Group decides which modes expose a tool and how its calls are approved.
// It is the single source of truth for both.
type Group string

const (
	GroupRead    Group = "read"
	GroupEdit    Group = "edit"
	GroupExecute Group = "execute"
	GroupPlan    Group = "plan"
	GroupMCP     Group = "mcp"
)

// Kind is the ACP tool kind an editor uses to pick an icon.
type Kind string

const (
	KindRead    Kind = "read"
	KindEdit    Kind = "edit"
	KindDelete  Kind = "delete"
	KindMove    Kind = "move"
	KindSearch  Kind = "search"
	KindExecute Kind = "execute"
	KindThink   Kind = "think"
	KindFetch   Kind = "fetch"
	KindOther   Kind = "other"
)

// Info describes a tool to the model and to the agent's policy.
type Info struct {
	Name        string
	Group       Group
	Kind        Kind
	Description string
	Schema      json.RawMessage // JSON Schema of the arguments object
}

// Preview is what an editor shows for a call before it runs.
type Preview struct {
	Title     string
	Locations []Location
}

// Tool is one capability the model can call.
type Tool interface {
	Info() Info
	// Describe titles a call from its raw arguments. It does no I/O and
	// tolerates malformed input (the model's arguments may be anything).
	Describe(root string, input json.RawMessage) Preview
	// Run executes the call. Failures the model should hear about (a bad
	// path, no match, a rejected permission) are a Result with IsError; a
	// returned error means the infrastructure broke or ctx was cancelled.
	Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error)
}

// Location is a file position a tool call touches (Line is 1-based, 0 = unknown).
type Location struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

// PlanEntry is one step of the agent's plan (update_plan).
// Its tags are update_plan's schema for one step.
type PlanEntry struct {
	Content  string `json:"content" jsonschema:"What the step does, in a few words."`
	Status   string `json:"status" enum:"pending|in_progress|completed"`
	Priority string `json:"priority,omitempty" enum:"high|medium|low"`
}

// Result is the outcome of a call.
type Result struct {
	// Output is what the model reads.
	Output string
	// IsError marks a failure the model should correct (sent as an error result).
	IsError bool
	// Locations the call touched, for the editor's "follow the agent".
	Locations []Location
	// Edits that were applied, shown to the user as diffs.
	Edits []edits.FileEdit
	// TerminalID is the editor terminal a command ran in, if any.
	TerminalID string
	// Plan is set by update_plan.
	Plan []PlanEntry
	// Touched lists absolute paths the call read, wrote or listed successfully;
	// the agent reconciles workspace instructions along them.
	Touched []string
	// Images returned by the tool (MCP), base64 with media type.
	Images []Image
}

// Image is a base64-encoded image returned by a tool.
type Image struct {
	MediaType string
	Data      string
}

// Env is what a running call may use. The agent builds one per session.
type Env struct {
	// Root is the session root: absolute, cleaned, symlinks resolved.
	Root string
	// Roots are the session's additional roots (absolute, symlinks
	// resolved): absolute paths inside them resolve like the primary
	// root's, and commands may write them. Empty for a one-root session.
	Roots []string
	Host  Host
	// Ask blocks until the call is approved (nil), rejected (ErrRejected) or
	// ctx ends. The agent applies the mode's policy, protected paths and
	// remembered answers; a tool simply asks whenever its group may need it.
	Ask func(ctx context.Context, a Ask) error
	// Progress streams partial output of the running call to the editor. May be nil.
	Progress func(Progress)
	// Index is the session root's code index. May be nil (no index available).
	Index *codeindex.Index
	// RootIndexes are the additional roots' code indexes, in the order of
	// Roots; an entry is nil while its root's index is not built.
	RootIndexes []*codeindex.Index
	// Hidden reports whether the permission rules deny reading the file at
	// abs; tools that list or search a directory leave such files out.
	// Nil: nothing is hidden.
	Hidden func(abs string) bool
	// CallID is the id the editor knows this call by.
	CallID string
}

// Ask is a permission request a tool makes.
type Ask struct {
	Title   string
	Kind    Kind
	Path    string          // absolute target of an edit; empty for commands
	Command string          // the exact command line, for run_command
	Edit    *edits.FileEdit // the change, shown as a diff before the user decides
	// Unsandboxed marks a command to run outside the sandbox: it asks in
	// every mode, and no answer to it is remembered.
	Unsandboxed bool
}

// Progress is a partial update of a running call.
type Progress struct {
	Output     string // output so far (replaces what was shown)
	TerminalID string // the editor terminal the call runs in
}

// ErrRejected is returned by Env.Ask when the user (or a remembered answer) says no.
var ErrRejected = errors.New("rejected by the user")

// Host is the part of agent.Host a tool uses: the editor's view of files and
// a place to run commands. Paths are absolute.
type Host interface {
	ReadFile(ctx context.Context, path string) (string, error)
	ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error)
	RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error)
}

// CommandSpec and CommandResult are the run_command contract, defined in
// package command so hosts can implement Host without importing tools.
type (
	CommandSpec   = command.Spec
	CommandResult = command.Result
)
