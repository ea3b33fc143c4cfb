package sdk

// Methods the plugin calls on the host. Each is gated by a permission;
// one the plugin was not granted is answered with error CodeDenied.
const (
	HostLog       = "host/log"       // always allowed
	HostReadFile  = "host/readFile"  // permissions.filesystem
	HostWriteFile = "host/writeFile" // permissions.filesystem
	HostListFiles = "host/listFiles" // permissions.filesystem
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
