package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/command"
)

// input is the event a hook reads on stdin, in Claude Code's shape.
type input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode,omitempty"`
	ToolName       string          `json:"tool_name,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse   any             `json:"tool_response,omitempty"`
	Prompt         *string         `json:"prompt,omitempty"`
	StopHookActive *bool           `json:"stop_hook_active,omitempty"`
	Source         string          `json:"source,omitempty"` // SessionStart
	Reason         string          `json:"reason,omitempty"` // SessionEnd
}

// output is what a hook may print as JSON on stdout (exit 0).
type output struct {
	Continue      *bool  `json:"continue"`
	StopReason    string `json:"stopReason"`
	SystemMessage string `json:"systemMessage"`
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	Specific      struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		AdditionalContext        string          `json:"additionalContext"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// outcome is one hook's answer, read from its exit code and output.
type outcome struct {
	block   bool   // refuse: exit 2, decision "block", permissionDecision "deny"
	reason  string // why, for the model (or the user, for a blocked prompt)
	halt    bool   // "continue": false — stop what the event was part of
	context string // additionalContext: text for the model
	plain   string // stdout that is not JSON: context for UserPromptSubmit and SessionStart only
	notice  string // for the user only: a failed hook, a systemMessage
	input   json.RawMessage
}

// outputLimit caps what is kept of a hook's stdout and stderr.
const outputLimit = 1 << 20

// run runs one hook with the event on stdin and reads its answer. A hook
// that cannot start, times out or exits with another code than 0 or 2 is
// a non-blocking error: the outcome carries a notice and nothing else.
func (h *Hooks) run(ctx context.Context, k hook, root string, in input) outcome {
	b, _ := json.Marshal(in)
	env := []string{"CLAUDE_PROJECT_DIR=" + root, "TANDEM_PROJECT_DIR=" + root}
	if k.src.Dir != "" {
		env = append(env, "CLAUDE_PLUGIN_ROOT="+k.src.Dir)
	}
	res, err := h.o.Run(ctx, command.Spec{Command: k.Command.Command, Dir: root, Timeout: k.timeout(),
		OutputLimit: outputLimit, Stdin: string(b), SplitStderr: true, Env: env})
	name := fmt.Sprintf("The %s hook %q (%s)", in.HookEventName, k.Command.Command, k.src.Path)
	switch {
	case err != nil:
		return outcome{notice: fmt.Sprintf("%s did not run: %v", name, err)}
	case res.TimedOut:
		return outcome{notice: fmt.Sprintf("%s ran past its %s and was stopped.", name, k.timeout())}
	case res.ExitCode == 2:
		return outcome{block: true, reason: strings.TrimSpace(res.Stderr)}
	case res.ExitCode != 0:
		msg := strings.TrimSpace(res.Stderr)
		if msg == "" {
			msg = "no message"
		}
		if res.Signal != "" {
			return outcome{notice: fmt.Sprintf("%s was killed by %s: %s", name, res.Signal, msg)}
		}
		return outcome{notice: fmt.Sprintf("%s failed with exit code %d: %s", name, res.ExitCode, msg)}
	}
	return parseOutput(res.Output)
}

// parseOutput reads a successful hook's stdout: JSON as Claude Code
// documents it, or plain text (context, for the events that take it).
func parseOutput(stdout string) outcome {
	text := strings.TrimSpace(stdout)
	var o output
	if !strings.HasPrefix(text, "{") || json.Unmarshal([]byte(text), &o) != nil {
		return outcome{plain: text}
	}
	out := outcome{notice: o.SystemMessage, context: o.Specific.AdditionalContext, input: o.Specific.UpdatedInput}
	switch {
	case o.Decision == "block":
		out.block, out.reason = true, o.Reason
	case o.Specific.PermissionDecision == "deny":
		out.block, out.reason = true, o.Specific.PermissionDecisionReason
	}
	if o.Continue != nil && !*o.Continue {
		out.halt, out.reason = true, o.StopReason
	}
	return out
}
