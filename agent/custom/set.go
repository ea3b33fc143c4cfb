package custom

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Set is what a session's sources hold, merged: the commands and skills
// that won their names, and the files that could not be used. It is
// immutable once loaded, so a session may hand it to any goroutine.
type Set struct {
	Commands []Command // sorted by name
	Skills   []Skill   // sorted by name
	// Problems lists files that failed to load and names that clash with
	// a built-in command; the user is told about each.
	Problems []Problem
	stamp    string
}

// Load reads sources in precedence order: the first command or skill of a
// name wins, which puts project folders before user ones (see Sources).
// builtin reports the names of tandem's own slash commands: a custom
// command of such a name is never offered (it would hide the built-in,
// or be hidden by it, without a word), and is reported instead; a skill of
// such a name, or of a custom command's name, stays available to the
// model but cannot be invoked with a slash, which is reported too.
func Load(sources []Source, builtin func(name string) bool) *Set {
	set := &Set{stamp: Stamp(sources)}
	cmds := map[string]bool{}
	skills := map[string]bool{}
	files := loaded{}
	for _, src := range sources {
		switch src.Kind {
		case KindCommands:
			list, problems := LoadCommands(src)
			set.Problems = append(set.Problems, problems...)
			for _, c := range list {
				switch {
				case builtin(c.Name):
					set.Problems = append(set.Problems, Problem{Path: c.Path,
						Err: fmt.Errorf("/%s is a built-in command, so this file is not offered; rename it", c.Name)})
				case !cmds[c.Name] && files.first(src, c.Path):
					cmds[c.Name] = true
					set.Commands = append(set.Commands, c)
				}
			}
		case KindSkills:
			list, problems := LoadSkills(src)
			set.Problems = append(set.Problems, problems...)
			for _, s := range list {
				if !skills[s.Name] && files.first(src, s.Path) {
					skills[s.Name] = true
					set.Skills = append(set.Skills, s)
				}
			}
		}
	}
	for _, s := range set.Skills {
		if builtin(s.Name) || cmds[s.Name] {
			set.Problems = append(set.Problems, Problem{Path: s.Path,
				Err: fmt.Errorf("/%s runs a command of the same name; the model can still use this skill, but the slash command cannot invoke it", s.Name)})
		}
	}
	sort.Slice(set.Commands, func(i, j int) bool { return set.Commands[i].Name < set.Commands[j].Name })
	sort.Slice(set.Skills, func(i, j int) bool { return set.Skills[i].Name < set.Skills[j].Name })
	return set
}

// Command finds a command by name.
func (s *Set) Command(name string) (Command, bool) {
	if s == nil {
		return Command{}, false
	}
	i := sort.Search(len(s.Commands), func(i int) bool { return s.Commands[i].Name >= name })
	if i < len(s.Commands) && s.Commands[i].Name == name {
		return s.Commands[i], true
	}
	return Command{}, false
}

// Skill finds a skill by name.
func (s *Set) Skill(name string) (Skill, bool) {
	if s == nil {
		return Skill{}, false
	}
	i := sort.Search(len(s.Skills), func(i int) bool { return s.Skills[i].Name >= name })
	if i < len(s.Skills) && s.Skills[i].Name == name {
		return s.Skills[i], true
	}
	return Skill{}, false
}

// Current reports whether the files behind s are unchanged: same names,
// sizes and modification times in every source. It only stats files, so a
// session can ask before every prompt.
func (s *Set) Current(sources []Source) bool {
	return s != nil && s.stamp == Stamp(sources)
}

// Stamp digests the names, sizes and modification times of the files
// sources would load.
func Stamp(sources []Source) string {
	h := sha1.New()
	note := func(path string) {
		if st, err := os.Stat(path); err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00%d\n", path, st.Size(), st.ModTime().UnixNano())
		}
	}
	for _, src := range sources {
		fmt.Fprintf(h, "source %s\n", src.Dir)
		if src.Entries != nil {
			for _, e := range src.Entries {
				if src.Kind == KindSkills {
					note(skillFileOf(e.Path))
				} else {
					note(e.Path)
				}
			}
			continue
		}
		real, err := filepath.EvalSymlinks(src.Dir)
		if err != nil {
			continue
		}
		switch src.Kind {
		case KindCommands:
			filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					note(path)
				}
				return nil
			})
		case KindSkills:
			entries, _ := os.ReadDir(real)
			for _, e := range entries {
				note(filepath.Join(real, e.Name(), SkillFile))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loaded is the files a namespace's sources have yielded. A contributor
// that names a file of its commands/ or skills/ folder in its entries
// gets it once, under the entry's name (entries come first), not again
// under the file's.
type loaded map[string]bool

func (l loaded) first(src Source, path string) bool {
	if src.Namespace == "" {
		return true
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	k := src.Namespace + "\x00" + path
	if l[k] {
		return false
	}
	l[k] = true
	return true
}
