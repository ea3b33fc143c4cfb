package plugin

import (
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/custom"
)

// CustomSources are the command and skill folders of the plugins that run
// for a session rooted at root: each plugin's commands/ and skills/ (a
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
		for _, k := range []struct {
			granted bool
			kind    custom.Kind
			sub     string
		}{{p.Commands, custom.KindCommands, "commands"}, {p.Skills, custom.KindSkills, "skills"}} {
			d := filepath.Join(dir, k.sub)
			if st, err := os.Stat(d); k.granted && err == nil && st.IsDir() {
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
				con.Modes = append(con.Modes, custom.NamedFile{Name: m.Name, Path: file(m.Path)})
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
