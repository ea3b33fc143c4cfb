package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// Scope is where a plugin was found.
type Scope string

const (
	ScopeBundled     Scope = "bundled"     // embedded in the binary
	ScopeUser        Scope = "user"        // $TANDEM_HOME/plugins
	ScopeProject     Scope = "project"     // <root>/.tandem/plugins
	ScopeProvisioned Scope = "provisioned" // TANDEM_PLUGIN_DIRS, read-only
)

// Plugin is one plugin folder found on disk (or embedded).
type Plugin struct {
	Manifest *Manifest
	Dir      string // absolute folder; for a bundled plugin "bundled:<name>"
	Scope    Scope
	// Claude is set for a Claude Code plugin (.claude-plugin/plugin.json):
	// a declarative plugin whose folders the customization loaders read.
	Claude *ClaudeParts
}

// ClaudeParts are the parts of a Claude Code plugin folder that exist
// (absolute paths; empty when absent).
type ClaudeParts struct {
	Commands, Agents, Skills string // folders of Markdown files
	Hooks                    string // hooks/hooks.json
	MCP                      string // .mcp.json
}

// Problem is a folder that looked like a plugin and could not be read: a
// refused plugin. Name is the manifest's name when it can be read at all,
// else the folder's; Scope is empty for a root that could not be listed.
type Problem struct {
	Dir   string
	Err   error
	Name  string
	Scope Scope
}

func (p Problem) Error() string { return p.Dir + ": " + p.Err.Error() }

// Roots are the folders plugins are looked for in, lowest precedence
// first: bundled, user, project, then provisioned folders.
type Roots struct {
	Bundled     fs.FS    // may be nil
	User        string   // $TANDEM_HOME/plugins; may be empty
	Project     string   // <root>/.tandem/plugins; may be empty
	Provisioned []string // TANDEM_PLUGIN_DIRS entries (absolute)
}

// ProvisionedDirs splits TANDEM_PLUGIN_DIRS; relative entries are dropped,
// since the process's working directory says nothing about intent.
func ProvisionedDirs(env string) []string {
	var dirs []string
	for _, d := range filepath.SplitList(env) {
		if filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs
}

// Discover lists every plugin under the roots, in precedence order, and
// the folders that failed. A missing root is no problem.
func Discover(r Roots) ([]*Plugin, []Problem) {
	var all []*Plugin
	var probs []Problem
	if r.Bundled != nil {
		ps, pr := scanFS(r.Bundled)
		all, probs = append(all, ps...), append(probs, pr...)
	}
	for _, root := range []struct {
		dir   string
		scope Scope
	}{{r.User, ScopeUser}, {r.Project, ScopeProject}} {
		ps, pr := scanDir(root.dir, root.scope)
		all, probs = append(all, ps...), append(probs, pr...)
	}
	for _, d := range r.Provisioned {
		ps, pr := scanDir(d, ScopeProvisioned)
		all, probs = append(all, ps...), append(probs, pr...)
	}
	return all, probs
}

func scanDir(root string, scope Scope) ([]*Plugin, []Problem) {
	if root == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []Problem{{Dir: root, Err: err}}
	}
	var ps []*Plugin
	var probs []Problem
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p, err := ReadFolder(dir, scope)
		switch {
		case err != nil:
			probs = append(probs, Problem{Dir: dir, Err: err, Name: refusedName(dir, e.Name()), Scope: scope})
		case p != nil:
			ps = append(ps, p)
		}
	}
	return ps, probs
}

// ReadFolder reads the plugin in dir: plugin.json, or a Claude Code
// plugin's .claude-plugin/plugin.json. It returns nil, nil for a folder
// with neither.
func ReadFolder(dir string, scope Scope) (*Plugin, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err == nil {
		m, err := ParseManifest(data)
		if err != nil {
			return nil, err
		}
		return &Plugin{Manifest: m, Dir: dir, Scope: scope}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	data, err = os.ReadFile(filepath.Join(dir, ".claude-plugin", ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return readClaude(dir, scope, data)
}

func scanFS(fsys fs.FS) ([]*Plugin, []Problem) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, []Problem{{Dir: "bundled", Err: err}}
	}
	var ps []*Plugin
	var probs []Problem
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name()+"/"+ManifestFile)
		if err != nil {
			continue
		}
		m, err := ParseManifest(data)
		if err != nil {
			probs = append(probs, Problem{Dir: "bundled:" + e.Name(), Err: err, Name: nameIn(data, e.Name()), Scope: ScopeBundled})
			continue
		}
		ps = append(ps, &Plugin{Manifest: m, Dir: "bundled:" + e.Name(), Scope: ScopeBundled})
	}
	return ps, probs
}

// refusedName is the name a refused plugin in dir goes by: its manifest's
// (or Claude Code manifest's) name when that much can be read, else the
// folder's name.
func refusedName(dir, folder string) string {
	for _, rel := range []string{ManifestFile, filepath.Join(".claude-plugin", ManifestFile)} {
		if data, err := os.ReadFile(filepath.Join(dir, rel)); err == nil {
			return nameIn(data, folder)
		}
	}
	return folder
}

// nameIn is the "name" of a manifest that may be invalid otherwise, or
// fallback.
func nameIn(data []byte, fallback string) string {
	var m struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &m) == nil && nameRE().MatchString(m.Name) {
		return m.Name
	}
	return fallback
}

// claudeManifest is the part of Claude Code's plugin.json tandem reads;
// the rest of that format is Claude Code's and is not refused here.
type claudeManifest struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

func readClaude(dir string, scope Scope, data []byte) (*Plugin, error) {
	var cm claudeManifest
	if err := json.Unmarshal(data, &cm); err != nil {
		return nil, fmt.Errorf(".claude-plugin/plugin.json: %w", err)
	}
	if !nameRE().MatchString(cm.Name) {
		return nil, fmt.Errorf(".claude-plugin/plugin.json: name %q must be lower-case letters, digits and '-'", cm.Name)
	}
	if cm.Version == "" {
		cm.Version = "0.0.0"
	}
	m := &Manifest{Name: cm.Name, Version: cm.Version, Description: cm.Description, HookTimeoutMs: DefaultHookTimeoutMs}
	parts := &ClaudeParts{}
	has := func(rel string, dirWanted bool) string {
		p := filepath.Join(dir, rel)
		st, err := os.Stat(p)
		if err != nil || st.IsDir() != dirWanted {
			return ""
		}
		return p
	}
	parts.Commands, parts.Agents, parts.Skills = has("commands", true), has("agents", true), has("skills", true)
	parts.Hooks, parts.MCP = has(filepath.Join("hooks", "hooks.json"), false), has(".mcp.json", false)
	// What the folder holds is what it asks for.
	m.Permissions.Commands = parts.Commands != ""
	m.Permissions.Skills = parts.Skills != ""
	m.Permissions.Agent = parts.Agents != ""
	m.Permissions.Lifecycle = parts.Hooks != ""
	m.Permissions.MCPServers = parts.MCP != ""
	return &Plugin{Manifest: m, Dir: dir, Scope: scope, Claude: parts}, nil
}

// commandLine splits a manifest's main into words, shell-style (quotes,
// no expansion of variables or globs).
func commandLine(s string) ([]string, error) {
	words, err := shell.Fields(s, func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("main is empty")
	}
	return words, nil
}
