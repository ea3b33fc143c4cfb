package custom

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/internal/frontmatter"
)

// Mode is a session mode: which tool groups the model is offered, an
// optional model, and role instructions. The four built-in modes are Modes
// too, read from files embedded in the binary.
type Mode struct {
	// Slug is the mode id editors send (ACP session/set_mode, LSP
	// tandem/setMode, /mode): the file name without .md.
	Slug        string
	Name        string
	Description string
	// Groups are the tool groups the mode offers (read, edit, execute, mcp,
	// plan, as DESIGN.md names them); nil offers every group.
	Groups []string
	// Model, when set, is the model the mode's requests use.
	Model string
	// Instructions is the body: role instructions the model is given when
	// the session enters the mode. Empty for the built-ins.
	Instructions string
	// Path is the file the mode came from ("builtin/modes/<slug>.md" for an
	// embedded one).
	Path string
	// Private modes are entered by slug but left out of the mode lists
	// editors show (a plugin mode's private: true).
	Private bool
}

// Offers reports whether the mode offers tools of group g.
func (m Mode) Offers(g string) bool {
	return m.Groups == nil || slices.Contains(m.Groups, g)
}

// modeHeader is a mode file's frontmatter.
type modeHeader struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Tools       *frontmatter.List `yaml:"tools"`
	Model       string            `yaml:"model"`
}

// knownGroups are the tool groups a mode may name, as DESIGN.md names them.
var knownGroups = []string{"read", "edit", "execute", "mcp", "plan"}

// ParseMode reads one mode file. slug is its file name without .md.
func ParseMode(slug, file string, data []byte) (Mode, error) {
	var h modeHeader
	body, err := frontmatter.Parse(data, &h)
	if err != nil {
		return Mode{}, err
	}
	var tools []string
	if h.Tools != nil {
		tools = append([]string{}, *h.Tools...) // an explicit list, even an empty one
	}
	return DefineMode(slug, h.Name, h.Description, tools, strings.TrimSpace(h.Model), body, file)
}

// DefineMode checks and builds a mode from its parts, as a mode file's
// frontmatter and body give them or a plugin's manifest does. tools nil
// offers every group; a list, even an empty one, is what the mode offers.
// A name left empty is the slug.
func DefineMode(slug, name, description string, tools []string, model, instructions, file string) (Mode, error) {
	if err := checkSlug(slug); err != nil {
		return Mode{}, err
	}
	m := Mode{Slug: slug, Name: strings.TrimSpace(name), Description: strings.TrimSpace(description),
		Model: model, Instructions: strings.TrimSpace(instructions), Path: file}
	if m.Name == "" {
		m.Name = slug
	}
	if tools != nil {
		m.Groups = []string{}
		for _, g := range tools {
			grp := strings.ToLower(g)
			if !slices.Contains(knownGroups, grp) {
				return Mode{}, fmt.Errorf("tools: %q is not a tool group; use %s", g, groupChoices())
			}
			if !slices.Contains(m.Groups, grp) {
				m.Groups = append(m.Groups, grp)
			}
		}
	}
	return m, nil
}

func groupChoices() string {
	return strings.Join(knownGroups, ", ")
}

//go:embed builtin/modes/*.md
var builtinModeFiles embed.FS

// builtinModeOrder is the order editors list the built-in modes in.
var builtinModeOrder = []string{"ask", "code", "auto-edit", "full-auto"}

// BuiltinModes returns the modes that ship inside the binary, in the order
// editors show them. The embedded files are part of the build, so a file
// that does not parse is a programming error and panics (every test that
// loads modes catches it).
func BuiltinModes() []Mode {
	out := make([]Mode, 0, len(builtinModeOrder))
	for _, slug := range builtinModeOrder {
		file := path.Join("builtin/modes", slug+".md")
		data, err := builtinModeFiles.ReadFile(file)
		if err != nil {
			panic(fmt.Sprintf("custom: built-in mode %s: %v", slug, err))
		}
		m, err := ParseMode(slug, file, data)
		if err != nil {
			panic(fmt.Sprintf("custom: built-in mode %s: %v", file, err))
		}
		out = append(out, m)
	}
	return out
}

// LoadModes returns the built-in modes followed by the modes in dirs, which
// are listed in precedence order (project before user): a slug found twice
// keeps its first file, and a file with a built-in's slug replaces that
// built-in in place. Files that do not parse are returned as errors naming
// the file and are skipped; the rest still load.
func LoadModes(dirs ...string) ([]Mode, []error) {
	modes := BuiltinModes()
	builtin := len(modes)
	var (
		custom []Mode
		errs   []error
		seen   = map[string]bool{}
	)
	for _, dir := range dirs {
		files, ferrs := readDefFiles(dir)
		errs = append(errs, ferrs...)
		for _, f := range files {
			if seen[f.slug] {
				continue // a folder earlier in precedence has it
			}
			m, err := ParseMode(f.slug, f.path, f.data)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f.path, err))
				continue
			}
			seen[f.slug] = true
			if i := slices.IndexFunc(modes[:builtin], func(b Mode) bool { return b.Slug == m.Slug }); i >= 0 {
				modes[i] = m
				continue
			}
			custom = append(custom, m)
		}
	}
	slices.SortStableFunc(custom, func(a, b Mode) int { return strings.Compare(a.Slug, b.Slug) })
	return append(modes, custom...), errs
}
