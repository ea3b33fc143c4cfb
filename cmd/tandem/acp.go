package main

import (
	"context"

	"github.com/tandemhq/tandem/acp"
)

// runACP serves the Agent Client Protocol on stdin/stdout until the editor
// closes stdin. Logs go to stderr (TANDEM_LOG sets the level).
func runACP(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("acp", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	a, err := m.newAgent()
	if err != nil {
		return err
	}
	defer m.closeAgent(a)
	return acp.Serve(ctx, m.Stdin, m.Stdout, acp.Options{Agent: a, Version: version, Log: m.logger(), MaxFrameBytes: a.MaxFrameBytes()})
}
