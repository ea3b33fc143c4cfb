package editors

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestZedExtensionManifest checks the agent-server extension's
// extension.toml: the fields Zed requires, and for every platform an
// https release archive of this version whose command runs `tandem acp`.
func TestZedExtensionManifest(t *testing.T) {
	t.Parallel()
	var m struct {
		ID            string   `toml:"id"`
		Name          string   `toml:"name"`
		Version       string   `toml:"version"`
		SchemaVersion int      `toml:"schema_version"`
		Authors       []string `toml:"authors"`
		Description   string   `toml:"description"`
		Repository    string   `toml:"repository"`
		AgentServers  map[string]struct {
			Name    string `toml:"name"`
			Targets map[string]struct {
				Archive string   `toml:"archive"`
				Cmd     string   `toml:"cmd"`
				Args    []string `toml:"args"`
			} `toml:"targets"`
		} `toml:"agent_servers"`
	}
	md, err := toml.DecodeFile(filepath.Join("zed", "extension", "extension.toml"), &m)
	if err != nil {
		t.Fatal(err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		t.Errorf("unexpected keys: %v", un)
	}
	if m.ID != "tandem" || m.Version == "" || m.SchemaVersion != 1 || len(m.Authors) == 0 || m.Description == "" || m.Repository == "" {
		t.Errorf("manifest header %+v", m)
	}
	srv, ok := m.AgentServers["tandem"]
	if !ok || srv.Name == "" {
		t.Fatalf("agent_servers.tandem missing: %+v", m.AgentServers)
	}
	for _, want := range []string{"linux-x86_64", "linux-aarch64", "darwin-aarch64", "darwin-x86_64"} {
		tg, ok := srv.Targets[want]
		if !ok {
			t.Errorf("no target %s", want)
			continue
		}
		if !strings.HasPrefix(tg.Archive, "https://") || !strings.Contains(tg.Archive, "/v"+m.Version+"/") || !strings.Contains(tg.Archive, want) {
			t.Errorf("%s: archive %q is not this version's https release for the platform", want, tg.Archive)
		}
		if tg.Cmd != "./tandem" || !slices.Equal(tg.Args, []string{"acp"}) {
			t.Errorf("%s: runs %s %v, want ./tandem [acp]", want, tg.Cmd, tg.Args)
		}
	}
}
