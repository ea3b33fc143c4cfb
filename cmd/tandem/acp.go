package main

import (
	"context"

	"github.com/tandemhq/tandem/acp"
	"github.com/tandemhq/tandem/agent/config"
)

// runACP serves the Agent Client Protocol on stdin/stdout until the editor
// closes stdin. Logs go to stderr (TANDEM_LOG sets the level). The agent is
// built while initialize is answered, which needs none of it.
func runACP(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("acp", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	cfg, err := config.Load(m.Getenv)
	if err != nil {
		return err
	}
	b, closeAgent := m.buildAgent(cfg)
	defer closeAgent()
	// The completion model is asked first for next-edit suggestions.
	comp := m.newCompletion(cfg)
	if comp != nil {
		defer comp.Close()
	}
	return acp.Serve(ctx, m.Stdin, m.Stdout, acp.Options{Building: b, Version: currentBuild().Version, Log: m.logger(), MaxFrameBytes: cfg.MaxFrameBytes, Completion: comp})
}
