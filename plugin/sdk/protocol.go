package sdk

import "encoding/json"

// ProtocolVersion is the version of the plugin protocol ("apiVersion" in
// plugin.json). A plugin that answers initialize with another version is
// not used.
const ProtocolVersion = "1"

// Methods the host calls on the plugin.
const (
	MethodInitialize = "initialize"
	MethodToolsCall  = "tools/call"
	MethodTransform  = "systemPrompt/transform"
	MethodShutdown   = "shutdown"
	// HookPrefix precedes a hook's name: "hooks/beforeToolCall".
	HookPrefix = "hooks/"
)

// Permissions are what a plugin may do. Every one is denied unless the
// manifest declares it; initialize tells the plugin what it was granted.
type Permissions struct {
	Tools        bool     `json:"tools,omitempty"`
	SystemPrompt bool     `json:"systemPrompt,omitempty"`
	Modes        bool     `json:"modes,omitempty"`
	Skills       bool     `json:"skills,omitempty"`
	Commands     bool     `json:"commands,omitempty"`
	Rules        bool     `json:"rules,omitempty"`
	MCPServers   bool     `json:"mcpServers,omitempty"`
	MCPInvoke    bool     `json:"mcpInvoke,omitempty"`
	Lifecycle    bool     `json:"lifecycle,omitempty"`
	Events       bool     `json:"events,omitempty"`
	Filesystem   []string `json:"filesystem,omitempty"`
	Network      []string `json:"network,omitempty"`
	AI           bool     `json:"ai,omitempty"`
	Agent        bool     `json:"agent,omitempty"`
	Task         bool     `json:"task,omitempty"`
	// UI lists the editor UI regions the plugin's contributes.ui fills.
	// No tandem editor has plugin UI regions, so it grants nothing; it is
	// accepted so that a manifest declaring UI still runs the rest.
	UI []string `json:"ui,omitempty"`
}

// InitializeParams start a plugin's work for one session. Each session
// runs its own process of each enabled plugin.
type InitializeParams struct {
	ProtocolVersion string   `json:"protocolVersion"`
	SessionID       string   `json:"sessionId"`
	Roots           []string `json:"roots"` // absolute workspace roots, the first is the session root
	Mode            string   `json:"mode"`
	// Config is the plugin's settings, validated against the manifest's
	// config schema with its defaults applied ({} when it has none).
	Config      json.RawMessage `json:"config"`
	Permissions Permissions     `json:"permissions"`
	// AIConsent is whether the user agreed to model calls billed to them
	// (permissions.ai needs this second consent).
	AIConsent  bool   `json:"aiConsent,omitempty"`
	PluginRoot string `json:"pluginRoot"` // the plugin folder
	DataDir    string `json:"dataDir"`    // the plugin's own persistent folder
}

// InitializeResult is what the plugin offers this session.
type InitializeResult struct {
	ProtocolVersion string    `json:"protocolVersion,omitempty"`
	Tools           []ToolDef `json:"tools,omitempty"`
	// Hooks names the hooks the plugin implements (HookBeforeToolCall…);
	// the host calls no other.
	Hooks []string `json:"hooks,omitempty"`
	// SystemPrompt is whether the plugin implements systemPrompt/transform.
	SystemPrompt bool `json:"systemPrompt,omitempty"`
	// Commands are slash commands the plugin runs (commands/run).
	Commands []CommandDef `json:"commands,omitempty"`
}

// ToolDef is a tool the plugin offers the model, shaped as in MCP.
type ToolDef struct {
	Name        string          `json:"name"` // [A-Za-z0-9_-]{1,48}
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"` // a JSON Schema object
}

// CallToolParams is one call of a plugin tool by the model (tools/call).
type CallToolParams struct {
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	SessionID  string          `json:"sessionId,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
}

// Content is one block of a tool result. Only "text" is read today.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// CallToolResult is a tool's answer, shaped as in MCP.
type CallToolResult struct {
	Content []Content `json:"content"`
	IsError bool      `json:"isError,omitempty"`
}

// Text is a result of one text block.
func Text(s string) CallToolResult {
	return CallToolResult{Content: []Content{{Type: "text", Text: s}}}
}

// TextOf joins a result's text blocks.
func (r CallToolResult) TextOf() string {
	var s string
	for _, c := range r.Content {
		if c.Type == "text" {
			s += c.Text
		}
	}
	return s
}

// TransformParams ask the plugin to rewrite the system prompt. They are
// sent when a session starts and when the set of plugins changes, never
// per turn, so the prompt stays byte-stable for the model's cache.
type TransformParams struct {
	SessionID string `json:"sessionId"`
	Prompt    string `json:"prompt"` // the prompt so far: earlier plugins have run
}

// TransformResult is the rewritten prompt ("" keeps it unchanged).
type TransformResult struct {
	Prompt string `json:"prompt"`
}
