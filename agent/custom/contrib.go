package custom

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/internal/frontmatter"
)

// Contribution is what one namespace (a plugin) adds to a session's modes,
// agents and rules: the files it names, which must stay inside Dir. Every
// mode and agent it yields is named "<Namespace>:<name>", a form no
// project, user or built-in file can take (a slug has no ':'), so a
// contribution never shadows anyone else's and two namespaces never clash.
type Contribution struct {
	Namespace string
	Dir       string      // the contributor's folder; links out of it are refused
	Modes     []NamedFile // mode files, each under its own name
	// Defined are modes the contributor defines in place (a plugin
	// manifest's inline modes), with Slug unqualified.
	Defined   []Mode
	AgentDirs []string // folders of agent files (*.md)
	Rules     []RuleFile
}

// NamedFile is one file a contributor names explicitly.
type NamedFile struct {
	Name    string
	Path    string // absolute
	Private bool   // for a mode: Mode.Private
}

// RuleFile is a rules file and the modes its contributor says it is for;
// with none, its own frontmatter's modes list decides.
type RuleFile struct {
	Path  string // absolute
	Modes []string
}

// Rule is rules text that joins the role instructions of the modes it
// names: mode ids, a contributor's own modes qualified. No modes: every
// mode.
type Rule struct {
	Namespace string
	Modes     []string
	Text      string
	Path      string
}

// For reports whether the rule applies in mode id.
func (r Rule) For(id string) bool { return len(r.Modes) == 0 || slices.Contains(r.Modes, id) }

// Contributed is the parsed contributions of a session, in the order they
// were given.
type Contributed struct {
	Modes  []Mode
	Agents []Subagent
	Rules  []Rule
}

type ruleHeader struct {
	Modes frontmatter.List `yaml:"modes"`
}

// LoadContributions parses every contribution's files. A file that cannot
// be read or parsed is returned as an error naming it and skipped; the rest
// still load. known resolves tandem tool names in agent files.
func LoadContributions(cs []Contribution, known ToolGroup) (Contributed, []error) {
	var (
		out  Contributed
		errs []error
	)
	for _, c := range cs {
		if err := checkSlug(c.Namespace); err != nil {
			errs = append(errs, fmt.Errorf("contribution: %w", err))
			continue
		}
		own := map[string]bool{}
		for _, f := range c.Modes {
			m, err := c.mode(f)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f.Path, err))
				continue
			}
			if !own[f.Name] {
				own[f.Name] = true
				out.Modes = append(out.Modes, m)
			}
		}
		for _, m := range c.Defined {
			if name := m.Slug; !own[name] {
				own[name] = true
				out.Modes = append(out.Modes, c.qualify(m, name))
			}
		}
		seen := map[string]bool{}
		for _, dir := range c.AgentDirs {
			as, aerrs := readSubagents(dir, known)
			errs = append(errs, aerrs...)
			for _, a := range as {
				if a.Name = c.Namespace + ":" + a.Name; !seen[a.Name] {
					seen[a.Name] = true
					out.Agents = append(out.Agents, a)
				}
			}
		}
		for _, f := range c.Rules {
			r, err := c.rule(f, own)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f.Path, err))
				continue
			}
			out.Rules = append(out.Rules, r)
		}
	}
	return out, errs
}

// mode parses one contributed mode file under its qualified slug.
func (c Contribution) mode(f NamedFile) (Mode, error) {
	data, err := readDefFile(c.Dir, f.Path)
	if err != nil {
		return Mode{}, err
	}
	m, err := ParseMode(f.Name, f.Path, data)
	if err != nil {
		return Mode{}, err
	}
	m.Private = f.Private
	return c.qualify(m, f.Name), nil
}

// qualify puts a contributed mode under the contributor's namespace.
func (c Contribution) qualify(m Mode, name string) Mode {
	if m.Name == name {
		m.Name = c.Namespace + ":" + name
	} else {
		m.Name += " (" + c.Namespace + ")" // who it comes from, in pickers
	}
	m.Slug = c.Namespace + ":" + name
	return m
}

// rule reads one rules file. Its modes are the contributor's list, else
// its frontmatter's; a plain name that is one of the contributor's own
// modes means that mode, any other names a mode of the session as is.
func (c Contribution) rule(f RuleFile, own map[string]bool) (Rule, error) {
	data, err := readDefFile(c.Dir, f.Path)
	if err != nil {
		return Rule{}, err
	}
	var h ruleHeader
	body, err := frontmatter.Parse(data, &h)
	if err != nil {
		return Rule{}, err
	}
	r := Rule{Namespace: c.Namespace, Text: strings.TrimSpace(body), Path: f.Path}
	if r.Text == "" {
		return Rule{}, fmt.Errorf("the rules file is empty")
	}
	names := f.Modes
	if len(names) == 0 {
		names = h.Modes
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if own[n] {
			n = c.Namespace + ":" + n
		}
		if n != "" && !slices.Contains(r.Modes, n) {
			r.Modes = append(r.Modes, n)
		}
	}
	return r, nil
}
