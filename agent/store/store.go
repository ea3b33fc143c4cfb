// Package store persists sessions: an append-only JSONL event log and a
// metadata sidecar per session under $TANDEM_HOME/sessions/<id>/.
package store

// Store is the sessions directory.
type Store struct {
	dir string
}

// Meta is a session's metadata sidecar (meta.json).
type Meta struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Cwd     string `json:"cwd"`
	Title   string `json:"title"`
}
