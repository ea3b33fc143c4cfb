package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/store"
)

// runSessions dispatches `tandem sessions [list|show|export|delete|prune|rename]`;
// with no subcommand it lists.
func runSessions(ctx context.Context, m *Main, args []string) error {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "list":
		return m.sessionsList(args)
	case "show":
		return m.sessionsShow(args)
	case "export":
		return m.sessionsExport(args)
	case "delete", "rm":
		return m.sessionsDelete(args)
	case "prune":
		return m.sessionsPrune(args)
	case "rename":
		return m.sessionsRename(args)
	}
	fmt.Fprintf(m.Stderr, "tandem sessions: unknown subcommand %q (list, show, export, delete, prune, rename)\n", sub)
	return errUsage
}

// openStore opens $TANDEM_HOME/sessions without building an agent.
func (m *Main) openStore() (*store.Store, error) {
	home, err := config.Home(m.Getenv)
	if err != nil {
		return nil, err
	}
	return store.Open(filepath.Join(home, "sessions"))
}

func (m *Main) sessionsList(args []string) error {
	fs := m.flags("sessions", "[list] [--cwd DIR] [--json] | show ID | export [--format jsonl|markdown] ID | delete ID... | prune --older-than AGE [--dry-run] | rename ID TITLE")
	cwd := fs.String("cwd", "", "only sessions of this `directory`")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	st, err := m.openStore()
	if err != nil {
		return err
	}
	dir := *cwd
	if dir != "" {
		if dir, err = filepath.Abs(dir); err != nil {
			return err
		}
	}
	metas, errs := st.List(dir)
	for _, err := range errs {
		fmt.Fprintf(m.Stderr, "tandem sessions: skipped: %v\n", err)
	}
	type row struct {
		store.Meta
		Size int64 `json:"size"`
	}
	rows := make([]row, len(metas))
	for i, meta := range metas {
		size, _ := st.Size(meta.ID)
		rows[i] = row{meta, size}
	}
	if *asJSON {
		return printJSON(m.Stdout, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(m.Stderr, "no stored sessions")
		return nil
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGE\tSIZE\tCWD\tTITLE")
	now := time.Now()
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, age(now.Sub(r.Updated)), bytesText(r.Size), r.Cwd, r.Title)
	}
	return tw.Flush()
}

// oneID parses a subcommand that takes flags and exactly one session id,
// and resolves the id (a unique prefix is enough).
func (m *Main) oneID(name, usage string, args []string, define func(fs *flag.FlagSet)) (*store.Store, string, error) {
	fs := m.flags("sessions "+name, usage)
	if define != nil {
		define(fs)
	}
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, "", err
	}
	if len(rest) != 1 {
		fs.Usage()
		return nil, "", errUsage
	}
	st, err := m.openStore()
	if err != nil {
		return nil, "", err
	}
	id, err := st.Resolve(rest[0])
	if err != nil {
		return nil, "", fmt.Errorf("%w (tandem sessions lists them)", err)
	}
	return st, id, nil
}

func (m *Main) sessionsShow(args []string) error {
	st, id, err := m.oneID("show", "ID", args, nil)
	if err != nil {
		return err
	}
	return m.writeMarkdown(st, id)
}

func (m *Main) sessionsExport(args []string) error {
	var format *string
	st, id, err := m.oneID("export", "[--format jsonl|markdown] ID", args, func(fs *flag.FlagSet) {
		format = fs.String("format", "jsonl", "`jsonl` (the event log as stored) or markdown (the transcript)")
	})
	if err != nil {
		return err
	}
	switch *format {
	case "jsonl":
		return st.CopyLog(id, m.Stdout)
	case "markdown", "md":
		return m.writeMarkdown(st, id)
	}
	return fmt.Errorf("unknown --format %q: use jsonl or markdown", *format)
}

func (m *Main) writeMarkdown(st *store.Store, id string) error {
	meta, recs, warnings, err := st.Read(id)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(m.Stderr, "tandem sessions: %s\n", w)
	}
	_, err = fmt.Fprint(m.Stdout, transcript(meta, recs))
	return err
}

func (m *Main) sessionsDelete(args []string) error {
	fs := m.flags("sessions delete", "ID...")
	ids, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		fs.Usage()
		return errUsage
	}
	st, err := m.openStore()
	if err != nil {
		return err
	}
	var errs []error
	for _, prefix := range ids {
		id, err := st.Resolve(prefix)
		if err == nil {
			err = st.Delete(id)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(m.Stderr, "deleted %s\n", id)
	}
	return errors.Join(errs...)
}

func (m *Main) sessionsPrune(args []string) error {
	fs := m.flags("sessions prune", "--older-than AGE [--dry-run]")
	olderThan := fs.String("older-than", "", "delete sessions not updated for this `age`: 30d, 12h, 90m")
	dry := fs.Bool("dry-run", false, "list what would be deleted, delete nothing")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	d, err := parseAge(*olderThan)
	if err != nil {
		fmt.Fprintf(m.Stderr, "tandem sessions prune: %v\n", err)
		fs.Usage()
		return errUsage
	}
	st, err := m.openStore()
	if err != nil {
		return err
	}
	metas, _ := st.List("")
	cutoff := time.Now().Add(-d)
	n := 0
	for _, meta := range metas {
		if !meta.Updated.Before(cutoff) {
			continue
		}
		if !*dry {
			if err := st.Delete(meta.ID); err != nil {
				return err
			}
		}
		n++
		fmt.Fprintf(m.Stdout, "%s\t%s\t%s\n", meta.ID, age(time.Since(meta.Updated)), meta.Title)
	}
	verb := "deleted"
	if *dry {
		verb = "would delete"
	}
	fmt.Fprintf(m.Stderr, "%s %s\n", verb, plural(n, "session"))
	return nil
}

// parseAge reads a duration with days allowed: 30d, 1d12h, 90m.
func parseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("--older-than is required, e.g. --older-than 30d")
	}
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			return 0, fmt.Errorf("--older-than %q: want an age such as 30d or 12h", s)
		}
		days, s = time.Duration(n)*24*time.Hour, s[i+1:]
	}
	var rest time.Duration
	if s != "" {
		var err error
		if rest, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("--older-than: want an age such as 30d or 12h: %w", err)
		}
	}
	if days+rest <= 0 {
		return 0, errors.New("--older-than must be a positive age")
	}
	return days + rest, nil
}

// age says how long ago, roughly: 45s, 12m, 3h, 9d.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// bytesText is a size in the largest unit that keeps it above 1: 512B, 3.4K, 1.2M.
func bytesText(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	}
	return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
}
