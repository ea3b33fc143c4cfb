package main

import (
	"log/slog"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/hooks"
	"github.com/tandemhq/tandem/agent/plugin"
)

// withHooks runs Claude Code command hooks (agent/hooks) from the settings
// files, Claude Code's own and the enabled Claude Code plugins' hooks.json.
func (m *Main) withHooks(cfg *agent.Config, rt *plugin.Runtime, log *slog.Logger) {
	hooks.New(hooks.Options{
		Home: cfg.Home, UserHome: cfg.UserHome, Claude: true, Log: log,
		Plugins: func(root string) []hooks.PluginFile {
			var out []hooks.PluginFile
			for _, f := range rt.HookFiles(root) {
				out = append(out, hooks.PluginFile(f))
			}
			return out
		},
	}).Register(&cfg.Pipeline)
}
