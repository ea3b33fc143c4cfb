package instructions

import (
	"fmt"
	"path/filepath"
	"strings"
)

// MetaVersion is the version of the persisted Meta shape.
const MetaVersion = 1

// Action is what one Change did to a scope.
type Action string

const (
	ActionSet     Action = "set"     // a scope loaded (baseline or newly reached)
	ActionReplace Action = "replace" // new content, or another candidate took over
	ActionRemove  Action = "remove"  // no candidate left; a tombstone
)

// Batch is one message for the model plus the state it establishes.
type Batch struct {
	// Text is the complete content of one user-role message; empty when
	// the batch only records files the client sent itself.
	Text string
	// Meta is persisted beside it; it is never shown to the model.
	Meta Meta
}

// Meta is the typed, durable record of one Batch. Restore rebuilds a
// Tracker from a sequence of these.
type Meta struct {
	Version  int  `json:"version"`
	Baseline bool `json:"baseline,omitempty"`
	// Changes are the scopes this message actually carried, broadest first.
	// Anything left out by the budget is absent here and stays eligible.
	Changes []Change `json:"changes"`
	// Bytes is len(Text); Budget the limit it was rendered under.
	Bytes  int `json:"bytes"`
	Budget int `json:"budget"`
	// Omitted lists scopes the budget left out entirely.
	Omitted []Omission `json:"omitted,omitempty"`
	// Unavailable lists candidates that could not be probed or read.
	Unavailable []Problem `json:"unavailable,omitempty"`
	// Root is set by a caller that keeps one Tracker per workspace root
	// (a session's additional roots), so Restore can be fed each root's
	// metadata again; this package neither sets nor reads it.
	Root string `json:"root,omitempty"`
}

// Change is one scope transition.
type Change struct {
	Action Action `json:"action"`
	// Scope is "user", "project:<dir>" or "local:<dir>", dir root-relative
	// with "/" separators ("." for the root).
	Scope string `json:"scope"`
	// Path is the file as the model saw it; File its absolute path.
	Path string `json:"path"`
	File string `json:"file"`
	// Digest is the hex SHA-1 of the whole file (empty for remove).
	Digest string `json:"digest,omitempty"`
	// Bytes is the file size; Shown how much of it the message carried when
	// Truncated.
	Bytes     int64 `json:"bytes,omitempty"`
	Shown     int   `json:"shown,omitempty"`
	Truncated bool  `json:"truncated,omitempty"`
	// Previous is the path that no longer applies when precedence moved.
	Previous string `json:"previous,omitempty"`
	// InPrompt marks a file the client sent in the prompt itself: loaded,
	// and not repeated in this batch's text.
	InPrompt bool `json:"inPrompt,omitempty"`
}

// Omission is a scope the budget left out.
type Omission struct {
	Scope  string `json:"scope"`
	Path   string `json:"path"`
	Action Action `json:"action"`
	Bytes  int64  `json:"bytes"`
}

// Problem is a candidate that was unavailable, and why.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Scope is one loaded scope as listed by Loaded.
type Scope struct {
	Scope     string `json:"scope"`
	Path      string `json:"path"`
	File      string `json:"file"`
	Digest    string `json:"digest"`
	Bytes     int64  `json:"bytes"`
	Truncated bool   `json:"truncated,omitempty"`
}

// kind orders scopes from broadest to most specific within a directory.
type kind uint8

const (
	kindUser kind = iota
	kindBase
	kindLocal
)

// slotKey names a scope independent of which candidate currently fills it.
type slotKey struct {
	kind kind
	dir  string // absolute, clean
}

// scopeID renders a slot as persisted in Change.Scope.
func scopeID(k slotKey, root string) string {
	switch k.kind {
	case kindUser:
		return "user"
	case kindLocal:
		return "local:" + relDir(root, k.dir)
	default:
		return "project:" + relDir(root, k.dir)
	}
}

func relDir(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(rel)
}

// keyFromChange recovers a slot from persisted metadata: the kind from the
// scope id, the directory from the absolute file path.
func keyFromChange(c Change) (slotKey, error) {
	if c.File == "" || !filepath.IsAbs(c.File) {
		return slotKey{}, fmt.Errorf("change for %q has no absolute file", c.Path)
	}
	dir := filepath.Dir(filepath.Clean(c.File))
	switch {
	case c.Scope == "user":
		return slotKey{kindUser, dir}, nil
	case strings.HasPrefix(c.Scope, "project:"):
		return slotKey{kindBase, dir}, nil
	case strings.HasPrefix(c.Scope, "local:"):
		return slotKey{kindLocal, dir}, nil
	}
	return slotKey{}, fmt.Errorf("unknown scope %q", c.Scope)
}
