package main

import (
	"context"
	"errors"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/lsp"
)

// runLSP serves LSP with tandem/* methods on stdin/stdout until the client
// sends exit or closes stdin. As LSP asks, the exit code is 0 after a
// shutdown request and 1 without one. Logs go to stderr. The agent is
// built while initialize is answered, which needs none of it unless the
// client names a mode.
func runLSP(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("lsp", "")
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
	comp := m.newCompletion(cfg)
	if comp != nil {
		defer comp.Close()
	}
	srv := lsp.NewServer(lsp.Options{Building: b, Log: m.logger(), Version: currentBuild().Version, MaxFrameBytes: cfg.MaxFrameBytes, Completion: comp})
	err = srv.Serve(ctx, m.Stdin, m.Stdout)
	if errors.Is(err, lsp.ErrExitWithoutShutdown) {
		return exitCode(1)
	}
	return err
}
