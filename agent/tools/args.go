package tools

import (
	"fmt"
	"path/filepath"
	"strings"
)

// failure is a result the model should read and act on.
func failure(format string, args ...any) Result {
	return Result{Output: fmt.Sprintf(format, args...), IsError: true}
}

// failureErr turns a model-facing error into a failed result.
func failureErr(err error) Result {
	return Result{Output: err.Error(), IsError: true}
}

// displayPath shows abs relative to root when it lies inside it, which is
// how the model and the user name files.
func displayPath(root, abs string) string {
	if root == "" {
		return abs
	}
	if rel, ok := within(filepath.Clean(root), abs); ok {
		if rel == "." {
			return "."
		}
		return filepath.ToSlash(rel)
	}
	return abs
}

// previewPath is Describe's path handling: no I/O, any input tolerated.
func previewPath(root, p string) (display, abs string) {
	if p == "" {
		return ".", root
	}
	if strings.ContainsRune(p, 0) {
		return strings.ReplaceAll(p, "\x00", `\0`), ""
	}
	abs = p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(root, p)
	}
	abs = filepath.Clean(abs)
	if _, ok := within(filepath.Clean(root), abs); !ok {
		return p, ""
	}
	return displayPath(root, abs), abs
}

// previewLocations is the single location of a path preview, if any.
func previewLocations(abs string, line int) []Location {
	if abs == "" {
		return nil
	}
	return []Location{{Path: abs, Line: line}}
}

// rejectedByUser is what the model reads when Env.Ask said no (err matches
// ErrRejected): the agent's reason when it gave one, else the user's no.
func rejectedByUser(what string, err error) Result {
	if err != nil && err != ErrRejected {
		return failure("%s", err.Error())
	}
	return failure("The user rejected %s. Nothing was changed. Ask the user how to proceed, or try a different approach.", what)
}
