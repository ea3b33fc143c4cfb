package settings

import (
	"encoding/json"
	"errors"
	"io/fs"
)

// CompletionsOff reports whether the workspace at root turned inline
// completions off: "completion": {"enabled": false} in
// .tandem/settings.json, or in .tandem/settings.local.json, which wins
// (a user may turn them back on for themselves with true there). A file
// that cannot be read leaves completions off: it may have said so.
func CompletionsOff(root string) bool {
	off := false
	for _, path := range []string{ProjectFile(root), LocalFile(root)} {
		b, err := readSmall(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		var f struct {
			Completion struct {
				Enabled *bool `json:"enabled"`
			} `json:"completion"`
		}
		if json.Unmarshal(b, &f) != nil {
			return true
		}
		if e := f.Completion.Enabled; e != nil {
			off = !*e
		}
	}
	return off
}
