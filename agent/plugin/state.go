package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// stateVersion is the version of plugins.json this tandem writes.
const stateVersion = 1

// StateFile is the user's consent and settings: $TANDEM_HOME/plugins.json.
func StateFile(home string) string { return filepath.Join(home, "plugins.json") }

// State is what the user decided about plugins. Consent is recorded per
// plugin folder, not per name: a repository shipping a plugin under the
// name of one the user enabled elsewhere is a different, disabled plugin.
type State struct {
	Version int                `json:"version"`
	Plugins map[string]*Choice `json:"plugins"` // by plugin name
}

// Choice is the user's decision about one plugin.
type Choice struct {
	// Enabled is true when the plugin in Dir was enabled, false when it was
	// disabled explicitly (which is how a bundled plugin that ships enabled
	// stays off).
	Enabled bool   `json:"enabled"`
	Dir     string `json:"dir"`
	// AIConsent is the second consent permissions.ai needs: model calls
	// billed to the user.
	AIConsent bool            `json:"aiConsent,omitempty"`
	Settings  json.RawMessage `json:"settings,omitempty"`
}

// LoadState reads plugins.json; a missing file is an empty state. A file
// of another version is refused rather than guessed at.
func LoadState(home string) (*State, error) {
	st := &State{Version: stateVersion, Plugins: map[string]*Choice{}}
	data, err := os.ReadFile(StateFile(home))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("%s: %w", StateFile(home), err)
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("%s has version %d; this tandem reads version %d", StateFile(home), st.Version, stateVersion)
	}
	if st.Plugins == nil {
		st.Plugins = map[string]*Choice{}
	}
	return st, nil
}

// Save writes the state atomically.
func (st *State) Save(home string) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(StateFile(home), append(data, '\n'), 0o600)
}

// enabled reports whether the user's choices run p.
func (st *State) enabled(p *Plugin) bool {
	c := st.Plugins[p.Manifest.Name]
	if c != nil && c.Dir == p.Dir {
		return c.Enabled
	}
	return p.Scope == ScopeBundled && p.Manifest.DefaultEnabled
}
