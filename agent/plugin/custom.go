package plugin

import (
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/internal/pathx"
)

// CustomSources are the commands and skills of the plugins that run for a
// session rooted at root: each plugin's contributes.commands and
// contributes.skills entries, then its commands/ and skills/ folders (a
// Claude Code plugin's too), with the matching permission, namespaced
// "<plugin>:" so they never collide with each other or shadow the user's.
// It is agent.Config.CustomSources, asked at every prompt, so enabling or
// disabling a plugin reaches its commands at the next one.
func (r *Runtime) CustomSources(root string) []custom.Source {
	cat, err := r.Load(root)
	if err != nil {
		r.log.Warn("plugin commands and skills skipped", "err", err)
		return nil
	}
	var out []custom.Source
	for _, s := range Active(cat.Statuses) {
		p := s.Manifest.Permissions
		if !p.Commands && !p.Skills {
			continue
		}
		dir, err := r.folder(s.Plugin)
		if err != nil {
			r.log.Warn("plugin commands and skills skipped", "plugin", s.Manifest.Name, "err", err)
			continue
		}
		c := s.Manifest.Contributes
		for _, k := range []struct {
			granted bool
			kind    custom.Kind
			sub     string
			listed  []Contribution
		}{{p.Commands, custom.KindCommands, "commands", c.Commands}, {p.Skills, custom.KindSkills, "skills", c.Skills}} {
			if !k.granted {
				continue
			}
			// The manifest's entries come first: a file they name is that
			// command or skill, under the entry's name, and the folder
			// scan passes it over (custom.Load keeps a file once).
			if len(k.listed) > 0 {
				src := custom.Source{Dir: dir, Kind: k.kind, Scope: custom.ScopePlugin, Namespace: s.Manifest.Name}
				for _, e := range k.listed {
					src.Entries = append(src.Entries, custom.Entry{Name: e.Name, Description: e.Description,
						ArgumentHint: e.ArgumentHint, Private: e.Private, Path: filepath.Join(dir, filepath.FromSlash(e.Path))})
				}
				out = append(out, src)
			}
			d := filepath.Join(dir, k.sub)
			if st, err := os.Stat(d); err == nil && st.IsDir() && inside(dir, d) {
				out = append(out, custom.Source{Dir: d, Kind: k.kind, Scope: custom.ScopePlugin, Namespace: s.Manifest.Name})
			}
		}
	}
	return out
}

// Contributions are the modes, agents and rules of the plugins active for
// a session rooted at root, each under its plugin's namespace and gated by
// its permission: contributes.modes (permissions.modes), the agents/
// folder, a Claude Code plugin's too (permissions.agent), and
// contributes.rules (permissions.rules). It is agent.Config.Contributions;
// sessions ask again when plugins.json changes (see stateWatch).
func (r *Runtime) Contributions(root string) []custom.Contribution {
	cat, err := r.Load(root)
	if err != nil {
		r.log.Warn("plugin modes, agents and rules skipped", "err", err)
		return nil
	}
	var out []custom.Contribution
	for _, s := range Active(cat.Statuses) {
		p, c := s.Manifest.Permissions, s.Manifest.Contributes
		if !p.Modes && !p.Agent && !p.Rules {
			continue
		}
		dir, err := r.folder(s.Plugin)
		if err != nil {
			r.log.Warn("plugin modes, agents and rules skipped", "plugin", s.Manifest.Name, "err", err)
			continue
		}
		file := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
		con := custom.Contribution{Namespace: s.Manifest.Name, Dir: dir}
		if p.Modes {
			for _, m := range c.Modes {
				if !m.Inline() {
					con.Modes = append(con.Modes, custom.NamedFile{Name: m.ID(), Path: file(m.Path), Private: m.Private})
					continue
				}
				// Checked when the manifest was read, so it builds.
				d, err := custom.DefineMode(m.ID(), m.Name, m.Description, m.Tools, "", m.RoleDefinition, file(ManifestFile))
				if err != nil {
					r.log.Warn("plugin mode skipped", "plugin", s.Manifest.Name, "mode", m.ID(), "err", err)
					continue
				}
				d.Private = m.Private
				con.Defined = append(con.Defined, d)
			}
		}
		if p.Agent {
			agents := file("agents")
			if s.Claude != nil {
				agents = s.Claude.Agents
			}
			if agents != "" {
				con.AgentDirs = []string{agents}
			}
		}
		if p.Rules {
			for _, rl := range c.Rules {
				con.Rules = append(con.Rules, custom.RuleFile{Path: file(rl.Path), Modes: rl.Modes})
			}
		}
		out = append(out, con)
	}
	return out
}

// inside reports whether path resolves inside dir: a plugin's commands/ or
// skills/ folder that links out of the plugin is not read.
func inside(dir, path string) bool {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	_, ok := pathx.Within(realDir, real)
	return ok
}
