package sdk

// Methods the plugin calls on the host. Each is gated by a permission;
// one the plugin was not granted is answered with error CodeDenied.
const (
	HostLog       = "host/log"       // always allowed
	HostReadFile  = "host/readFile"  // permissions.filesystem
	HostWriteFile = "host/writeFile" // permissions.filesystem
	HostListFiles = "host/listFiles" // permissions.filesystem
	HostModel     = "host/model"     // permissions.ai and the user's AI consent
)

// CodeDenied is the JSON-RPC error code of a host call the plugin's
// permissions do not cover.
const CodeDenied = -32001

// LogParams: one line for the plugin's log file. Level is debug, info,
// warn or error.
type LogParams struct {
	Level   string `json:"level,omitempty"`
	Message string `json:"message"`
}

// PathParams name a file: absolute, or relative to the session root. It
// must lie inside the plugin's data folder or a permissions.filesystem
// entry.
type PathParams struct {
	Path string `json:"path"`
}

// ReadFileResult is a file's content (UTF-8 text).
type ReadFileResult struct {
	Content string `json:"content"`
}

// WriteFileParams replace a file's content, creating its folder.
type WriteFileParams struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// ListFilesResult lists one folder.
type ListFilesResult struct {
	Entries []DirEntry `json:"entries"`
}

// DirEntry is one name in a folder.
type DirEntry struct {
	Name string `json:"name"`
	Dir  bool   `json:"dir,omitempty"`
}

// ModelParams ask the user's configured model for one answer (no tools).
// Model is optional (the session's default); the plugin never sees a key.
type ModelParams struct {
	Model     string         `json:"model,omitempty"`
	System    string         `json:"system,omitempty"`
	Messages  []ModelMessage `json:"messages"`
	MaxTokens int            `json:"maxTokens,omitempty"`
}

// ModelMessage is one turn of the conversation sent: role "user" or
// "assistant", plain text.
type ModelMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// ModelResult is the model's answer and what it cost.
type ModelResult struct {
	Text         string `json:"text"`
	StopReason   string `json:"stopReason"`
	InputTokens  int    `json:"inputTokens"`
	OutputTokens int    `json:"outputTokens"`
}
