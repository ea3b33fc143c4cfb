package custom

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// loadCommandEntries reads the command files src.Entries name, each
// confined to src.Dir.
func loadCommandEntries(src Source) ([]Command, []Problem) {
	var out []Command
	var problems []Problem
	for _, e := range src.Entries {
		c, err := commandEntry(src, e)
		if err != nil {
			problems = append(problems, Problem{Path: e.Path, Err: err})
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

func commandEntry(src Source, e Entry) (Command, error) {
	real, data, err := readEntry(src.Dir, e.Path)
	if err != nil {
		return Command{}, err
	}
	c, err := parseCommand(data, real, e.Name, src)
	if err != nil {
		return Command{}, err
	}
	if d := strings.TrimSpace(e.Description); d != "" {
		c.Description = d
	}
	if h := strings.TrimSpace(e.ArgumentHint); h != "" {
		c.ArgumentHint = h
	}
	c.Private = e.Private
	return c, nil
}

// loadSkillEntries reads the skills src.Entries name: a skill's folder or
// its SKILL.md, confined to src.Dir.
func loadSkillEntries(src Source) ([]Skill, []Problem) {
	var out []Skill
	var problems []Problem
	for _, e := range src.Entries {
		real, data, err := readEntry(src.Dir, skillFileOf(e.Path))
		if err == nil {
			var s Skill
			if s, err = parseSkill(data, real, e, src); err == nil {
				out = append(out, s)
				continue
			}
		}
		problems = append(problems, Problem{Path: e.Path, Err: err})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

// skillFileOf is the SKILL.md an entry means: the path itself, or the
// SKILL.md of the folder it names.
func skillFileOf(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, SkillFile)
	}
	return path
}

// readEntry reads a named file after resolving its links, refusing one
// that resolves outside dir; it returns the resolved path, so the skill's
// folder (what the model may read from) is the real one inside dir.
func readEntry(dir, path string) (string, []byte, error) {
	data, err := readDefFile(dir, path)
	if err != nil {
		return "", nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	return real, data, err
}
