package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/instructions"
)

// instructionsReport is the --json shape: what a new session would load.
type instructionsReport struct {
	Dir            string                  `json:"dir"`
	Root           string                  `json:"root"`
	Home           string                  `json:"home,omitempty"`
	Enabled        bool                    `json:"enabled"`
	MaxBytes       int                     `json:"maxBytes"`
	MaxSourceBytes int64                   `json:"maxSourceBytes"`
	Bytes          int                     `json:"bytes"`
	Scopes         []instructions.Change   `json:"scopes"`
	Omitted        []instructions.Omission `json:"omitted,omitempty"`
	Unavailable    []instructions.Problem  `json:"unavailable,omitempty"`
}

// runInstructions prints the baseline message a new session in DIR would
// send (followed by one newline), or with --json the scopes behind it.
func runInstructions(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("instructions", "[--json] [DIR]")
	asJSON := fs.Bool("json", false, "print the scopes (paths, SHA-1 digests, byte counts) as JSON instead of the message")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return errUsage
	}
	dir := fs.Arg(0)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("find the current directory (pass DIR instead): %w", err)
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	cfg, err := instructions.LoadConfig("", m.Getenv)
	if err != nil {
		return err
	}
	tr := instructions.NewTracker(cfg, dir)
	b, err := tr.Baseline(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		rep := instructionsReport{
			Dir: dir, Root: tr.Root(), Home: cfg.Home, Enabled: tr.Enabled(),
			MaxBytes: cfg.MaxBytes, MaxSourceBytes: cfg.MaxSourceBytes,
			Scopes: []instructions.Change{}, Unavailable: tr.Unavailable(),
		}
		if b != nil {
			rep.Bytes, rep.Scopes = len(b.Text), b.Meta.Changes
			rep.Omitted = b.Meta.Omitted
		}
		return printJSON(m.Stdout, rep)
	}
	if b == nil {
		if !tr.Enabled() {
			fmt.Fprintln(m.Stderr, "workspace instructions are disabled (maxBytes ≤ 0)")
		} else {
			fmt.Fprintf(m.Stderr, "no workspace instructions apply to %s (project root %s)\n", dir, tr.Root())
		}
		return nil
	}
	_, err = fmt.Fprintln(m.Stdout, b.Text)
	return err
}
