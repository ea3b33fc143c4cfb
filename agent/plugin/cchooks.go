package plugin

import "os"

// HookFile is a Claude Code plugin's hooks/hooks.json, for agent/hooks to
// run; Dir is the plugin's folder (CLAUDE_PLUGIN_ROOT to its commands).
type HookFile struct {
	Plugin, Path, Dir string
}

// HookFiles lists the hooks.json files of the enabled Claude Code plugins
// for a session rooted at root. Enabling the plugin is the user's consent
// to its hook commands, as it is to its other parts.
func (r *Runtime) HookFiles(root string) []HookFile {
	cat, err := r.Load(root)
	if err != nil {
		r.log.Warn("plugin hooks skipped", "err", err)
		return nil
	}
	var out []HookFile
	for _, s := range Active(cat.Statuses) {
		if s.Claude == nil || s.Claude.Hooks == "" {
			continue
		}
		if _, err := os.Stat(s.Claude.Hooks); err == nil {
			out = append(out, HookFile{Plugin: s.Manifest.Name, Path: s.Claude.Hooks, Dir: s.Dir})
		}
	}
	return out
}
