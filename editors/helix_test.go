package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/tandemhq/tandem/internal/testenv"
)

// helixServer is one [language-server.NAME] table of Helix's languages.toml.
type helixServer struct {
	Command string         `toml:"command"`
	Args    []string       `toml:"args"`
	Config  map[string]any `toml:"config"`
}

type helixLanguages struct {
	LanguageServer map[string]helixServer `toml:"language-server"`
	Language       []struct {
		Name            string   `toml:"name"`
		LanguageServers []string `toml:"language-servers"`
	} `toml:"language"`
}

// TestHelixLanguages checks the languages.toml users merge: Helix's shape,
// tandem added to every language it lists, and — with the README's config
// block — a command line that starts `tandem lsp`, which takes the mode
// from initializationOptions for the sessions it creates.
func TestHelixLanguages(t *testing.T) {
	t.Parallel()
	var doc helixLanguages
	md, err := toml.DecodeFile(filepath.Join("helix", "languages.toml"), &doc)
	if err != nil {
		t.Fatal(err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		t.Errorf("keys Helix would not read here: %v", un)
	}
	srv, ok := doc.LanguageServer["tandem"]
	if !ok || srv.Command != "tandem" || !slices.Equal(srv.Args, []string{"lsp"}) {
		t.Fatalf("[language-server.tandem] = %+v, want command tandem, args [lsp]", srv)
	}
	if len(doc.Language) == 0 {
		t.Fatal("no [[language]] adds tandem")
	}
	for _, l := range doc.Language {
		if !slices.Contains(l.LanguageServers, "tandem") || len(l.LanguageServers) < 2 {
			t.Errorf("%s: language-servers %v must keep the language's own server and add tandem", l.Name, l.LanguageServers)
		}
	}

	readme, err := os.ReadFile(filepath.Join("helix", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```toml\n(.*?)```").FindStringSubmatch(string(readme))
	if block == nil {
		t.Fatal("helix/README.md has no toml block")
	}
	var withConfig helixLanguages
	if _, err := toml.Decode(block[1], &withConfig); err != nil {
		t.Fatalf("the README's toml block: %v", err)
	}
	srv = withConfig.LanguageServer["tandem"]
	if srv.Config["mode"] != "auto-edit" {
		t.Fatalf("the README's config = %v", srv.Config)
	}

	root := t.TempDir()
	cmd := exec.Command(tandemBin(t), srv.Args...)
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+t.TempDir())
	stdin, stdout := testenv.Start(t, cmd, nil)
	peer := testenv.NewPeer(t, stdout, stdin, testenv.ContentLength, nil)
	t.Cleanup(func() { peer.Close(); testenv.WaitExit(cmd, 5*time.Second) })
	var init struct {
		Capabilities struct {
			CodeActionProvider      any  `json:"codeActionProvider"`
			WorkspaceSymbolProvider bool `json:"workspaceSymbolProvider"`
		} `json:"capabilities"`
	}
	if err := peer.Call("initialize", map[string]any{
		"processId": nil, "rootUri": "file://" + root, "capabilities": map[string]any{},
		"initializationOptions": srv.Config,
	}, &init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if init.Capabilities.CodeActionProvider == nil || !init.Capabilities.WorkspaceSymbolProvider {
		t.Errorf("capabilities Helix uses are missing: %+v", init.Capabilities)
	}
	peer.Notify("initialized", map[string]any{})
	var ns struct {
		Modes struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	if err := peer.Call("tandem/newSession", map[string]any{}, &ns); err != nil {
		t.Fatal(err)
	}
	if ns.Modes.CurrentModeID != "auto-edit" {
		t.Errorf("a session created without a mode is in %q, want the configured auto-edit", ns.Modes.CurrentModeID)
	}
}
