package sdk

import "context"

// MethodCommandRun runs one of the plugin's slash commands (those its
// initialize result lists under "commands"); it needs permissions.commands.
const MethodCommandRun = "commands/run"

// CommandDef is a slash command the plugin offers. The user types it as
// /<plugin>:<name>; a bundled plugin's commands also answer to /<name>
// when no built-in or custom command has that name.
type CommandDef struct {
	Name        string `json:"name"` // [A-Za-z0-9_-]{1,48}
	Description string `json:"description"`
	Hint        string `json:"hint,omitempty"` // what the argument is; "" when it takes none
}

// RunCommandParams: the user ran the command with Arguments (the text
// after its name, trimmed).
type RunCommandParams struct {
	SessionID string `json:"sessionId"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// RunCommandResult is the text shown to the user (not to the model).
type RunCommandResult struct {
	Text string `json:"text"`
}

// Command is a slash command a Go plugin offers, with what runs it.
type Command struct {
	Def CommandDef
	Run func(ctx context.Context, h *Host, p RunCommandParams) (string, error)
}
