package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// configureSandbox hands the user's sandbox and commandEnv settings, and
// tandem's own path as the sandbox helper, to the command runner of every
// front door (agent/local reads sandbox.SettingsEnv). Where Landlock is
// missing it says so once, on stderr. A broken config.json is left for the
// subcommand to report.
func configureSandbox(getenv func(string) string, stderr io.Writer) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return
	}
	s := sandbox.Settings{Mode: cfg.Sandbox.Mode, Network: cfg.Sandbox.Network,
		WritablePaths: cfg.Sandbox.WritablePaths, EnvAllow: cfg.CommandEnvAllow,
		Hidden: hiddenHome(cfg.Home)}
	if err := s.Validate(); err != nil {
		fmt.Fprintf(stderr, "tandem: %v; commands run in workspace-write mode\n", err)
		s.Mode, s.Network = "", ""
	}
	if exe, err := os.Executable(); err == nil {
		s.Helper = exe
	}
	if ok, why := sandbox.Available(); !ok && s.Mode != sandbox.ModeOff {
		fmt.Fprintf(stderr, "tandem: commands are not sandboxed: %s\n", why)
	}
	os.Setenv(sandbox.SettingsEnv, s.Encode())
}

// hiddenHome lists what of $TANDEM_HOME commands and plugins must not read:
// the files that may hold keys (config.json, mcp.json with servers'
// environments) and the conversations (sessions, logs). Plugins live there
// too and must still reach their own folders, so the home stays visible.
func hiddenHome(home string) []string {
	var out []string
	for _, n := range []string{"config.json", "mcp.json", "sessions", "logs"} {
		out = append(out, filepath.Join(home, n))
	}
	return out
}
