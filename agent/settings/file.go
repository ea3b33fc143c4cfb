package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tandemhq/tandem/agent/policy"
)

// maxFileSize bounds a settings file read from a repository.
const maxFileSize = 1 << 20

// Lists are the three rule lists of one file, as written.
type Lists struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// list returns the list for d.
func (l *Lists) list(d policy.Decision) *[]string {
	switch d {
	case policy.Allow:
		return &l.Allow
	case policy.Deny:
		return &l.Deny
	}
	return &l.Ask
}

// readLists reads the "permissions" object of the JSON file at path. A
// missing file has no rules; an unreadable one is an error saying which.
func readLists(path string) (Lists, error) {
	var l Lists
	b, err := readSmall(path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, err
	}
	var f struct {
		Permissions *json.RawMessage `json:"permissions"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return l, fmt.Errorf("%s is not valid JSON: %w", path, err)
	}
	if f.Permissions == nil {
		return l, nil
	}
	if err := json.Unmarshal(*f.Permissions, &l); err != nil {
		return l, fmt.Errorf("%s: \"permissions\" must hold allow, ask and deny lists of strings: %w", path, err)
	}
	return l, nil
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFileSize)
	}
	return b, nil
}
