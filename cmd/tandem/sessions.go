package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"text/tabwriter"
)

func runSessions(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("sessions", "[--cwd DIR] [--json]")
	cwd := fs.String("cwd", "", "only sessions of this directory")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := m.newAgent()
	if err != nil {
		return err
	}
	dir := *cwd
	if dir != "" {
		if dir, err = filepath.Abs(dir); err != nil {
			return err
		}
	}
	metas, err := a.ListSessions(dir)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if metas == nil {
			return enc.Encode([]any{})
		}
		return enc.Encode(metas)
	}
	if len(metas) == 0 {
		fmt.Fprintln(m.Stderr, "no stored sessions")
		return nil
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tCWD\tTITLE")
	for _, s := range metas {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"), s.Cwd, s.Title)
	}
	return tw.Flush()
}
