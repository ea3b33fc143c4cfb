package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/codeindex"
)

// repoMapTokens reads config.json's "repoMap": {"tokens": N}: the budget
// of the map a session's first request carries. Absent means the default;
// 0 turns the map off; a negative budget is a mistake worth saying so.
func repoMapTokens(cfg config.Config) (int, error) {
	t := cfg.RepoMapTokens
	if t == nil {
		return codeindex.DefaultMapTokens, nil
	}
	if *t < 0 {
		return 0, fmt.Errorf("config: repoMap.tokens is %d; use 0 to turn the map off", *t)
	}
	return *t, nil
}

// focusList collects repeated --focus flags.
type focusList []string

func (f *focusList) String() string     { return fmt.Sprint(*f) }
func (f *focusList) Set(s string) error { *f = append(*f, s); return nil }

// runMap prints the repository map of a tree: its files ranked by how the
// rest of the code refers to them, each with its most used definitions.
func runMap(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("map", "[--tokens N] [--focus PATH]... [-v] [DIR]")
	tokens := fs.Int("tokens", 0, "budget in tokens (about 4 bytes each); 0 uses config.json's repoMap.tokens, else 1500")
	var focus focusList
	fs.Var(&focus, "focus", "rank toward this file or directory (relative to DIR); repeatable")
	verbose := fs.Bool("v", false, "report on stderr how long indexing and ranking took")
	flagUsage := fs.Usage
	fs.Usage = func() {
		flagUsage()
		fmt.Fprint(m.Stderr, "\nFiles come first when other files use what they define (PageRank over the\n"+
			"references between files); --focus personalises the ranking toward the files named.\n"+
			"Each line under a file is `line | signature`. The index is cached as for `tandem defs`.\n\n"+
			"example:\n  tandem map --tokens 800 --focus agent/turn.go .\n")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return errUsage
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	cfg, err := config.Load(m.Getenv)
	if err != nil {
		return err
	}
	if *tokens <= 0 {
		if *tokens, err = repoMapTokens(cfg); err != nil {
			return err
		}
		if *tokens == 0 {
			*tokens = codeindex.DefaultMapTokens // off for sessions; asked for here
		}
	}
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	start := time.Now()
	ix, err := codeindex.Open(ctx, dir, codeindex.Options{CacheDir: filepath.Join(cfg.Home, "index"), Logger: m.logger(), Refs: true})
	if err != nil {
		return err
	}
	opened := time.Since(start)
	out, err := ix.Map(ctx, codeindex.MapOptions{Tokens: *tokens, Focus: focus})
	if err != nil {
		return err
	}
	if *verbose {
		fmt.Fprintf(m.Stderr, "tandem map: %s: %d files; index %v, map %v\n", ix.Root(), len(ix.Files("")),
			opened.Round(time.Millisecond), (time.Since(start) - opened).Round(time.Millisecond))
	}
	_, err = fmt.Fprint(m.Stdout, out)
	return err
}
