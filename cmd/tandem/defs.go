package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/internal/filelist"

	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/treesitter"
)

// runDefs lists the definitions of files and trees. Trees go through the
// code index, so a second run over an unchanged tree only stats its files.
func runDefs(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("defs", "[--json] [-v] PATH...")
	asJSON := fs.Bool("json", false, "print JSON: one array of files with their definitions")
	verbose := fs.Bool("v", false, "report on stderr what was parsed, reused and how long it took")
	flagUsage := fs.Usage
	fs.Usage = func() {
		flagUsage()
		fmt.Fprintf(m.Stderr, "A directory is listed as git shows it (or honouring .gitignore outside git), leaving out\n"+
			"these directories wherever they occur below it: %s.\n", strings.Join(filelist.SkipDirs(), ", "))
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	// A one-shot listing holds every definition until it prints them: a
	// lazier collector saves CPU (peak RSS on the Go tree stays < 300 MB).
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(192 << 20))
	home, err := config.Home(m.Getenv)
	if err != nil {
		return err
	}
	opts := codeindex.Options{CacheDir: filepath.Join(home, "index"), Logger: m.logger()}
	var all []*codeindex.File
	failed := false
	for _, p := range fs.Args() {
		files, err := defsOf(ctx, m, p, opts, *verbose)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(m.Stderr, "tandem defs: %v\n", err)
			failed = true
			continue
		}
		if *asJSON {
			all = append(all, files...)
			continue
		}
		if err := codeindex.WriteListing(m.Stdout, files, codeindex.ListOptions{MaxDepth: -1}); err != nil {
			return err
		}
	}
	if *asJSON {
		if all == nil {
			all = []*codeindex.File{}
		}
		if err := json.NewEncoder(m.Stdout).Encode(jsonFiles(all)); err != nil {
			return err
		}
	}
	if failed {
		return exitCode(1)
	}
	return nil
}

// defsOf indexes a directory (cached) or parses a single file.
func defsOf(ctx context.Context, m *Main, path string, opts codeindex.Options, verbose bool) ([]*codeindex.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		f, err := parseOne(path)
		if err != nil {
			return nil, err
		}
		return []*codeindex.File{f}, nil
	}
	start := time.Now()
	ix, err := codeindex.Open(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	files := ix.Files("")
	if verbose {
		defs := 0
		for _, f := range files {
			defs += len(f.Defs)
		}
		fmt.Fprintf(m.Stderr, "tandem defs: %s: %d files, %d definitions in %v\n", ix.Root(), len(files), defs, time.Since(start).Round(time.Millisecond))
	}
	return files, nil
}

func parseOne(path string) (*codeindex.File, error) {
	lang := treesitter.ForPath(path)
	if lang == nil {
		return nil, fmt.Errorf("%s: no grammar for this kind of file", path)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return codeindex.ParseFile(filepath.ToSlash(filepath.Clean(path)), lang, src), nil
}

type jsonFile struct {
	Path  string                  `json:"path"`
	Lang  string                  `json:"lang"`
	Lines int                     `json:"lines"`
	Defs  []treesitter.Definition `json:"defs"`
	Error string                  `json:"error,omitempty"`
}

func jsonFiles(files []*codeindex.File) []jsonFile {
	out := make([]jsonFile, len(files))
	for i, f := range files {
		defs := f.Defs
		if defs == nil {
			defs = []treesitter.Definition{}
		}
		out[i] = jsonFile{Path: f.Path, Lang: f.Lang, Lines: f.Lines, Defs: defs, Error: f.Err}
	}
	return out
}
