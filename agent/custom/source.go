package custom

import (
	"fmt"
	"path/filepath"
)

// Scope says where a source sits. On a name clash the earlier source in a
// Set wins; Sources lists project folders before user folders.
type Scope string

const (
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
	ScopePlugin  Scope = "plugin"
)

// Kind is what a source folder holds.
type Kind string

const (
	KindCommands Kind = "commands"
	KindSkills   Kind = "skills"
)

// Source is one folder of commands or skills.
type Source struct {
	Dir   string
	Kind  Kind
	Scope Scope
	// Namespace, when set, prefixes every name as "<namespace>:<name>"
	// (a plugin's name), so sources with different namespaces never clash.
	Namespace string
	// Entries, when set, are read instead of walking Dir: the files a
	// contributor names one by one (a plugin's contributes.commands or
	// contributes.skills), each under its own name behind Namespace. Dir
	// is then the contributor's folder, which every entry must resolve
	// inside: a link out of it is refused.
	Entries []Entry
}

// Entry is one command file, or one skill (its folder or its SKILL.md),
// a contributor names explicitly.
type Entry struct {
	Name        string
	Path        string // absolute
	Description string // when set, replaces the file's own
	// ArgumentHint, when set, replaces a command file's argument-hint.
	ArgumentHint string
	// Private marks the command or skill Private.
	Private bool
}

// Problem is a file that could not be used, and why. It is reported to the
// user; the rest of its folder still loads.
type Problem struct {
	Path string
	Err  error
}

func (p Problem) Error() string { return fmt.Sprintf("%s: %v", p.Path, p.Err) }

// Places are the directories Sources looks in. Empty fields are skipped.
type Places struct {
	Root       string // the session root: project folders
	TandemHome string // $TANDEM_HOME: tandem's user folders
	UserHome   string // the user's home: ~/.claude and ~/.agents
}

// Sources lists the folders of a session in precedence order: project
// before user, and within each tandem's own folder before the borrowed
// formats (.agents, then .claude).
func Sources(p Places) []Source {
	var out []Source
	add := func(base string, sc Scope, k Kind, dirs ...string) {
		if base == "" {
			return
		}
		for _, d := range dirs {
			out = append(out, Source{Dir: filepath.Join(base, d), Kind: k, Scope: sc})
		}
	}
	add(p.Root, ScopeProject, KindCommands, ".tandem/commands", ".claude/commands")
	add(p.TandemHome, ScopeUser, KindCommands, "commands")
	add(p.UserHome, ScopeUser, KindCommands, ".claude/commands")
	add(p.Root, ScopeProject, KindSkills, ".tandem/skills", ".agents/skills", ".claude/skills")
	add(p.TandemHome, ScopeUser, KindSkills, "skills")
	add(p.UserHome, ScopeUser, KindSkills, ".agents/skills", ".claude/skills")
	return out
}

// qualify applies a source's namespace to a name.
func (s Source) qualify(name string) string {
	if s.Namespace == "" {
		return name
	}
	return s.Namespace + ":" + name
}
