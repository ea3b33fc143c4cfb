package sdk

import "encoding/json"

// Hook names: the method is HookPrefix + name. Deciding hooks are requests
// the host waits for (under the plugin's hookTimeoutMs); observing hooks
// are notifications the host sends without waiting. Deciding hooks need
// permissions.lifecycle; observing hooks need lifecycle or events.
const (
	// Deciding.
	HookBeforeToolCall = "beforeToolCall"
	HookAfterToolCall  = "afterToolCall"
	HookBeforeAsk      = "beforeAsk"
	HookBeforeFileEdit = "beforeFileEdit"
	// Observing.
	HookAfterAsk           = "afterAsk"
	HookAfterFileEdit      = "afterFileEdit"
	HookUserMessage        = "userMessage"
	HookAssistantMessage   = "assistantMessage"
	HookTurnStart          = "turnStart"
	HookTurnEnd            = "turnEnd"
	HookModelRequestStart  = "modelRequestStart"
	HookModelRequestFinish = "modelRequestFinish"
)

// DecidingHooks are the hooks whose answer the host waits for.
var DecidingHooks = []string{HookBeforeToolCall, HookAfterToolCall, HookBeforeAsk, HookBeforeFileEdit}

// ObservingHooks are the hooks sent as notifications.
var ObservingHooks = []string{HookAfterAsk, HookAfterFileEdit, HookUserMessage, HookAssistantMessage,
	HookTurnStart, HookTurnEnd, HookModelRequestStart, HookModelRequestFinish, HookTimelineRewind}

// BeforeToolCallParams: a tool call the model made, before it runs (after
// the mode check, before any permission prompt). Arguments are as earlier
// plugins left them.
type BeforeToolCallParams struct {
	SessionID  string          `json:"sessionId"`
	ToolCallID string          `json:"toolCallId"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
}

// BeforeToolCallResult: "allow": false refuses the call (the model reads
// the reason); arguments, when set, replace the call's arguments for later
// plugins and the tool. A null result, or one without "allow", lets the
// call run unchanged.
type BeforeToolCallResult struct {
	Allow     *bool           `json:"allow,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Allow and Deny build BeforeToolCallResult values.
func Allow() BeforeToolCallResult { t := true; return BeforeToolCallResult{Allow: &t} }

// Deny refuses a call with a reason the model reads.
func Deny(reason string) BeforeToolCallResult {
	f := false
	return BeforeToolCallResult{Allow: &f, Reason: reason}
}

// AfterToolCallParams: a call's result, before the model sees it.
type AfterToolCallParams struct {
	SessionID  string          `json:"sessionId"`
	ToolCallID string          `json:"toolCallId"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Result     CallToolResult  `json:"result"`
}

// AfterToolCallResult: a non-null result replaces the call's result for
// later plugins, the editor and the model.
type AfterToolCallResult struct {
	Result *CallToolResult `json:"result,omitempty"`
}

// BeforeAskParams: a tool is about to ask the user's permission.
type BeforeAskParams struct {
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId"`
	Tool       string `json:"tool"`
	Title      string `json:"title"`
	Kind       string `json:"kind"`
	Path       string `json:"path,omitempty"`
	Command    string `json:"command,omitempty"`
}

// BeforeAskResult: "deny" refuses without asking (the reason is the
// model's); "approve" answers yes for the user, but only where one of the
// user's allow rules could have (a deny rule still refuses; a protected
// file, an ask rule or a command outside the sandbox still asks); "ask" or
// nothing lets the policy ask as usual. Across plugins a deny wins.
type BeforeAskResult struct {
	Decision string `json:"decision,omitempty"` // "deny" | "approve" | "ask"
	Reason   string `json:"reason,omitempty"`
}

// AfterAskParams: how an ask ended: "allowed", "rejected" or "cancelled".
type AfterAskParams struct {
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId"`
	Tool       string `json:"tool"`
	Outcome    string `json:"outcome"`
	Reason     string `json:"reason,omitempty"`
}

// BeforeFileEditParams: a tool is about to change a file, with its content
// right now (Before; Exists false for a file the edit creates) and after.
// The edit waits for the answer, so a snapshot taken here is exact.
type BeforeFileEditParams struct {
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId"`
	Path       string `json:"path"` // absolute
	Exists     bool   `json:"exists"`
	Before     string `json:"before"`
	After      string `json:"after"`
	Delete     bool   `json:"delete,omitempty"`
}

// BeforeFileEditResult: "allow": false refuses the edit with the reason.
type BeforeFileEditResult struct {
	Allow  *bool  `json:"allow,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// AfterFileEditParams: what became of an edit.
type AfterFileEditParams struct {
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId"`
	Path       string `json:"path"`
	Applied    bool   `json:"applied"`
	Reason     string `json:"reason,omitempty"`
}

// MessageParams: the user's prompt (userMessage, turnStart) or the
// assistant's text of one response (assistantMessage).
type MessageParams struct {
	SessionID string `json:"sessionId"`
	Text      string `json:"text"`
}

// TurnEndParams: how a turn ended.
type TurnEndParams struct {
	SessionID  string `json:"sessionId"`
	StopReason string `json:"stopReason,omitempty"`
	Error      string `json:"error,omitempty"`
}

// ModelRequestStartParams: a model request about to be sent.
type ModelRequestStartParams struct {
	SessionID            string `json:"sessionId"`
	Model                string `json:"model"`
	EstimatedInputTokens int    `json:"estimatedInputTokens"`
	ContextWindow        int    `json:"contextWindow"`
}

// ModelRequestFinishParams: a complete model response and what it cost.
type ModelRequestFinishParams struct {
	SessionID        string `json:"sessionId"`
	Model            string `json:"model"`
	StopReason       string `json:"stopReason"`
	InputTokens      int    `json:"inputTokens"`
	OutputTokens     int    `json:"outputTokens"`
	CacheReadTokens  int    `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int    `json:"cacheWriteTokens,omitempty"`
	DurationMs       int64  `json:"durationMs"`
}
