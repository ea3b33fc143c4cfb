package tools

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// SearchFilesName is the model-facing name of the search tool.
const SearchFilesName = "search_files"

const (
	searchMaxMatches   = 200
	searchMaxLineBytes = 200
	// searchMaxFileBytes skips generated blobs and data files no one greps.
	searchMaxFileBytes = 4 << 20
)

//go:embed search_files.md
var searchFilesDescription string

type searchFilesArgs struct {
	Pattern string `json:"pattern" jsonschema:"Regular expression (RE2 syntax) matched against each line."`
	Path    string `json:"path,omitempty" jsonschema:"File or directory to search, relative to the workspace root. Default: the root."`
	Glob    string `json:"glob,omitempty" jsonschema:"Only search files matching this glob, e.g. \"*.go\", \"src/**/*.ts\", \"*.{ts,tsx}\"."`
}

// NewSearchFiles returns the search_files tool.
func NewSearchFiles() Tool {
	return New(Spec[searchFilesArgs]{Name: SearchFilesName, Group: GroupRead, Kind: KindSearch,
		Doc: searchFilesDescription, Run: runSearchFiles, Describe: describeSearchFiles})
}

func describeSearchFiles(root string, p searchFilesArgs) Preview {
	display, abs := previewPath(root, p.Path)
	title := fmt.Sprintf("Search %q in %s", p.Pattern, display)
	if p.Glob != "" {
		title += " (" + p.Glob + ")"
	}
	return Preview{Title: title, Locations: previewLocations(abs, 0)}
}

// runSearchFiles reads files from disk rather than through Host.ReadFile: a search may
// touch thousands of files and a round trip to the editor for each would
// make it crawl. Unsaved editor changes are therefore not searched.
func runSearchFiles(ctx context.Context, env *Env, p searchFilesArgs) (Result, error) {
	if p.Pattern == "" {
		return failure("pattern is empty; give a regular expression (RE2 syntax)"), nil
	}
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return failure("invalid regular expression %q: %v (the syntax is RE2: no lookaround or backreferences; escape literal ( [ { . * + ? with a backslash)", p.Pattern, err), nil
	}
	glob, err := compileGlob(p.Glob)
	if err != nil {
		return failureErr(err), nil
	}
	if p.Path == "" {
		p.Path = "."
	}
	abs, err := env.Resolve(p.Path)
	if err != nil {
		return failureErr(err), nil
	}
	root, _ := filepath.EvalSymlinks(env.RootOf(abs))
	shown := displayPath(root, abs)
	fi, err := os.Stat(abs)
	if err != nil {
		return failure("cannot search %s: %v", shown, err), nil
	}
	var files []string
	complete := true
	if fi.IsDir() {
		files, complete, err = workspaceFiles(ctx, root, abs)
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			return failure("cannot search %s: %v", shown, err), nil
		}
		files = env.visible(root, files)
	} else {
		files = []string{shown}
	}

	var b strings.Builder
	matches, filesMatched := 0, 0
	var locations []Location
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if glob != nil && fi.IsDir() && !glob.match(rel) {
			continue
		}
		n := searchFile(root, rel, re, func(line int, text string) {
			if matches < searchMaxMatches {
				fmt.Fprintf(&b, "%s:%d: %s\n", rel, line, text)
				if len(locations) < 50 {
					locations = append(locations, Location{Path: filepath.Join(root, filepath.FromSlash(rel)), Line: line})
				}
			}
			matches++
		})
		if n > 0 {
			filesMatched++
		}
	}
	if matches == 0 {
		return Result{Output: fmt.Sprintf("No matches for %q in %s.", p.Pattern, shown), Touched: []string{abs}}, nil
	}
	if matches > searchMaxMatches {
		fmt.Fprintf(&b, "\n[%d more matches not shown (%d in total, in %d files). Narrow the pattern, path or glob.]\n",
			matches-searchMaxMatches, matches, filesMatched)
	}
	if !complete {
		fmt.Fprintf(&b, "\n[Only the first %d files were searched.]\n", maxWalkFiles)
	}
	return Result{Output: b.String(), Locations: locations, Touched: []string{abs}}, nil
}

// searchFile calls hit for every matching line of root/rel and returns the
// number of matches. Binary, huge and unreadable files, and symlinks that
// lead out of root, are skipped.
func searchFile(root, rel string, re *regexp.Regexp, hit func(line int, text string)) int {
	path := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		// Listings never descend into linked directories, so only the
		// last component can be a link; it must stay inside the root.
		if path, err = Resolve(root, rel); err != nil {
			return 0
		}
		if fi, err = os.Stat(path); err != nil {
			return 0
		}
	}
	if !fi.Mode().IsRegular() || fi.Size() > searchMaxFileBytes {
		return 0
	}
	data, err := os.ReadFile(path)
	if err != nil || looksBinary(string(data)) {
		return 0
	}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 64<<10), searchMaxFileBytes+1)
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes()
		if !re.Match(text) {
			continue
		}
		n++
		s := strings.TrimRight(strings.ToValidUTF8(string(text), "\uFFFD"), "\r")
		s = strings.TrimSpace(s)
		if cut, ok := truncateRunes(s, searchMaxLineBytes); ok {
			s = cut + "…"
		}
		hit(line, s)
	}
	return n
}
