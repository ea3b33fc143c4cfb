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
