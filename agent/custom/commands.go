package custom

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/internal/frontmatter"
	"github.com/tandemhq/tandem/internal/pathx"
)

// MaxFile caps one command or SKILL.md file. Real ones are a few KB; the
// cap keeps a stray large file from landing in every prompt.
const MaxFile = 256 << 10

// Command is one custom slash command: a prompt template.
type Command struct {
	// Name is what follows the slash: the file's path below its folder
	// without ".md", subfolders joined with ':' (frontend/component.md is
	// "frontend:component"), behind the source's namespace if any.
	Name         string
	Description  string
	ArgumentHint string
	// Model, when set, answers the turns this command starts.
	Model string
	// AllowedTools is kept as written. tandem shows it but does not turn it
	// into grants: a file from a repository must not widen what the agent
	// may do without asking.
	AllowedTools []string
	Body         string
	Path         string // the file it came from
	Scope        Scope
	// Private commands run by name but are left out of the lists users
	// are shown (a plugin's contributes.commands private: true).
	Private bool
}

type commandHeader struct {
	Description  string           `yaml:"description"`
	ArgumentHint string           `yaml:"argument-hint"`
	Model        string           `yaml:"model"`
	AllowedTools frontmatter.List `yaml:"allowed-tools"`
}

// LoadCommands reads every *.md file below src.Dir. A missing folder is
// no commands and no problem; a file that does not parse is a Problem.
// Commands come back sorted by name.
func LoadCommands(src Source) ([]Command, []Problem) {
	if src.Entries != nil {
		return loadCommandEntries(src)
	}
	var out []Command
	var problems []Problem
	walkMarkdown(src.Dir, src.Scope == ScopeUser, func(path, rel string, err error) {
		if err != nil {
			problems = append(problems, Problem{Path: path, Err: err})
			return
		}
		c, err := readCommand(path, rel, src)
		if err != nil {
			problems = append(problems, Problem{Path: path, Err: err})
			return
		}
		out = append(out, c)
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

func readCommand(path, rel string, src Source) (Command, error) {
	data, err := readCapped(path)
	if err != nil {
		return Command{}, err
	}
	name := strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".md"), "/", ":")
	return parseCommand(data, path, name, src)
}

// parseCommand makes the command name (before its namespace) of a file's
// bytes.
func parseCommand(data []byte, path, name string, src Source) (Command, error) {
	var h commandHeader
	body, err := parseHeader(data, &h)
	if err != nil {
		return Command{}, err
	}
	if err := checkName(name); err != nil {
		return Command{}, err
	}
	desc := strings.TrimSpace(h.Description)
	if desc == "" {
		desc = firstLine(body)
	}
	return Command{
		Name:         src.qualify(name),
		Description:  desc,
		ArgumentHint: strings.TrimSpace(h.ArgumentHint),
		Model:        strings.TrimSpace(h.Model),
		AllowedTools: h.AllowedTools,
		Body:         body,
		Path:         path,
		Scope:        src.Scope,
	}, nil
}

// checkName refuses names a slash command line could not carry.
func checkName(name string) error {
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		return fmt.Errorf("%q cannot be a command name: rename the file without spaces", name)
	}
	return nil
}

// firstLine is a description for a file that gives none: its first
// non-empty line, shortened.
func firstLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l != "" {
			if r := []rune(l); len(r) > 80 {
				l = string(r[:79]) + "…"
			}
			return l
		}
	}
	return ""
}

// walkMarkdown calls fn for every regular *.md file below dir, with its
// path relative to dir, in lexical order. A symlinked file is followed
// when trusted says so or when it stays inside dir: a repository's link
// must not pull an arbitrary file of the machine into a prompt, while a
// user's dotfiles commonly link their folders elsewhere.
func walkMarkdown(dir string, trusted bool, fn func(path, rel string, err error)) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return // no such folder: nothing to load
	}
	filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path != real {
				fn(path, "", err)
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 && !trusted && !linksWithin(real, path) {
			fn(path, "", errors.New("a symlink that leaves its folder is not followed in a project"))
			return nil
		}
		rel, err := filepath.Rel(real, path)
		if err != nil {
			fn(path, "", err)
			return nil
		}
		fn(path, rel, nil)
		return nil
	})
}

// linksWithin reports whether the symlink at path resolves inside dir.
func linksWithin(dir, path string) bool {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	_, ok := pathx.Within(dir, target)
	return ok
}

var errTooLarge = errors.New("file is larger than the limit")

// readCapped reads a file of at most MaxFile bytes.
func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%w of %d bytes", errTooLarge, MaxFile)
	}
	return data, nil
}
