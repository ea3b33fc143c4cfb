package release

import (
	_ "embed"
	"encoding/json"
	"os"
	"path/filepath"
)

// icon is the registry's 16×16 icon, drawn in currentColor so that each
// client themes it.
//
//go:embed icon.svg
var icon []byte

// NPMName is the npm launcher package; each platform's binary is in
// NPMName-<os>-<cpu>.
const NPMName = "@tandemhq/tandem"

const (
	description = "A coding agent in your editor: edits land in the editor's own undo history, over ACP or LSP."
	repository  = "https://github.com/tandemhq/tandem"
)

// RegistryEntry is the ACP Registry's agent.json (agent.schema.json in
// the registry repository; a copy is in testdata/acp-registry).
type RegistryEntry struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Version      string       `json:"version"`
	Description  string       `json:"description"`
	Repository   string       `json:"repository,omitempty"`
	Authors      []string     `json:"authors,omitempty"`
	License      string       `json:"license,omitempty"`
	Distribution Distribution `json:"distribution"`
}

// Distribution is how a client gets tandem: an archive per platform, or
// the npm launcher through npx.
type Distribution struct {
	Binary map[string]BinaryTarget `json:"binary,omitempty"`
	NPX    *PackageDist            `json:"npx,omitempty"`
}

// BinaryTarget is one platform's archive and the command in it.
type BinaryTarget struct {
	Archive string   `json:"archive"`
	Cmd     string   `json:"cmd"`
	Args    []string `json:"args,omitempty"`
}

// PackageDist is a package run through npx.
type PackageDist struct {
	Package string   `json:"package"`
	Args    []string `json:"args,omitempty"`
}

// writeRegistryEntry writes dir/agent.json and dir/icon.svg, the layout of
// an entry's folder in the registry repository. The schema has no field
// for a checksum (a target allows only archive, cmd, args and env), so
// the archives' sums are in SHA256SUMS beside them.
func writeRegistryEntry(dir string, o Options, targets []Target) error {
	e := RegistryEntry{ID: "tandem", Name: "Tandem", Version: o.Version, Description: description, Repository: repository,
		Authors: []string{"tandem contributors"},
		Distribution: Distribution{Binary: map[string]BinaryTarget{},
			NPX: &PackageDist{Package: NPMName + "@" + o.Version, Args: []string{"acp"}}}}
	for _, t := range targets {
		e.Distribution.Binary[t.Platform] = BinaryTarget{Archive: o.BaseURL + "/" + t.Archive(o.Version), Cmd: "./" + t.Exe(), Args: []string{"acp"}}
	}
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "icon.svg"), icon, 0o644)
}
