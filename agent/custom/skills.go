package custom

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/internal/frontmatter"
)

// SkillFile is the file that makes a folder a skill.
const SkillFile = "SKILL.md"

// Skill is one skill in the Agent Skills format: a folder holding a
// SKILL.md (frontmatter name and description, optional allowed-tools)
// and any scripts or resources its instructions refer to.
type Skill struct {
	Name        string // behind the source's namespace if any
	Description string
	// AllowedTools is kept as written and, as for commands, never turned
	// into grants.
	AllowedTools []string
	Dir          string // the skill's folder: what the model may read from
	Path         string // its SKILL.md
	Scope        Scope
	// Private skills are left out of the lists users are shown (the slash
	// menu) but stay in the model's: they are hidden from the user, not
	// from the agent, which invokes them by name.
	Private bool
}

type skillHeader struct {
	Name         string           `yaml:"name"`
	Description  string           `yaml:"description"`
	AllowedTools frontmatter.List `yaml:"allowed-tools"`
}

// validSkillName is the Agent Skills rule for names (the caller caps the
// length at 64): lower-case letters and digits in words joined by single
// hyphens, ^[a-z0-9]+(-[a-z0-9]+)*$ checked byte by byte, since compiling
// that regexp cost more than every check a process makes.
func validSkillName(name string) bool {
	if name == "" || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c != '-' && !lowerAlnum(c) {
			return false
		}
	}
	return true
}

// lowerAlnum reports whether c is a lower-case ASCII letter or a digit.
func lowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// maxDescription is the Agent Skills limit on a description; longer ones
// are cut, since every session's prompt carries them.
const maxDescription = 1024

// LoadSkills reads every <name>/SKILL.md directly below src.Dir. Folders
// without a SKILL.md are not skills and are passed over silently; a
// SKILL.md that does not parse or lacks a description is a Problem.
// Skills come back sorted by name.
func LoadSkills(src Source) ([]Skill, []Problem) {
	if src.Entries != nil {
		return loadSkillEntries(src)
	}
	real, err := filepath.EvalSymlinks(src.Dir)
	if err != nil {
		return nil, nil
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		return nil, []Problem{{Path: src.Dir, Err: err}}
	}
	var out []Skill
	var problems []Problem
	for _, e := range entries {
		dir := filepath.Join(real, e.Name())
		if e.Type()&os.ModeSymlink != 0 && src.Scope != ScopeUser {
			continue // a repository's or a plugin's link could point anywhere
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		path := filepath.Join(dir, SkillFile)
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		s, err := readSkill(path, src)
		if err != nil {
			problems = append(problems, Problem{Path: path, Err: err})
			continue
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

func readSkill(path string, src Source) (Skill, error) {
	data, err := readCapped(path)
	if err != nil {
		return Skill{}, err
	}
	return parseSkill(data, path, Entry{}, src)
}

// parseSkill makes a skill of a SKILL.md's bytes. It is named (before its
// namespace) and described by e when e says so, else by its frontmatter;
// failing that it takes its folder's name.
func parseSkill(data []byte, path string, e Entry, src Source) (Skill, error) {
	var h skillHeader
	if _, err := parseHeader(data, &h); err != nil {
		return Skill{}, err
	}
	dir := filepath.Dir(path)
	name := e.Name
	if name == "" {
		name = strings.TrimSpace(h.Name)
	}
	if name == "" {
		name = filepath.Base(dir)
	}
	if len(name) > 64 || !validSkillName(name) {
		return Skill{}, fmt.Errorf("skill name %q: use lower-case letters, digits and hyphens, at most 64 characters", name)
	}
	desc := strings.Join(strings.Fields(h.Description), " ")
	if e.Description != "" {
		desc = strings.Join(strings.Fields(e.Description), " ")
	}
	if desc == "" {
		return Skill{}, errors.New("the frontmatter has no description: the model would not know when to use the skill")
	}
	if r := []rune(desc); len(r) > maxDescription {
		desc = string(r[:maxDescription-1]) + "…"
	}
	return Skill{Name: src.qualify(name), Description: desc, AllowedTools: h.AllowedTools,
		Dir: dir, Path: path, Scope: src.Scope, Private: e.Private}, nil
}

// Read returns the skill's SKILL.md as it is now on disk.
func (s Skill) Read() (string, error) {
	data, err := readCapped(s.Path)
	return string(data), err
}
