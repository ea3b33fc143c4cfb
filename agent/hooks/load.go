package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/policy"
)

// PluginFile is a Claude Code plugin's hooks.json (agent/plugin lists them).
type PluginFile struct {
	Plugin, Path, Dir string
}

// sources reads every file that holds hooks for root, user files first.
// A file that cannot be read is skipped and named in problems.
func (h *Hooks) sources(root string) (out []Source, problems []string) {
	type file struct {
		path    string
		project bool
		plugin  PluginFile
	}
	var files []file
	if h.o.Home != "" {
		files = append(files, file{path: filepath.Join(h.o.Home, "config.json")})
	}
	if h.o.UserHome != "" && h.o.Claude {
		files = append(files, file{path: filepath.Join(h.o.UserHome, ".claude", "settings.json")})
	}
	if h.o.Plugins != nil {
		for _, p := range h.o.Plugins(root) {
			files = append(files, file{path: p.Path, plugin: p})
		}
	}
	for _, rel := range []string{".tandem/settings.json", ".tandem/settings.local.json", ".claude/settings.json", ".claude/settings.local.json"} {
		if rel[:7] == ".claude" && !h.o.Claude {
			continue
		}
		files = append(files, file{path: filepath.Join(root, filepath.FromSlash(rel)), project: true})
	}
	for _, f := range files {
		c, err := ReadFile(f.path)
		if err != nil {
			problems = append(problems, fmt.Sprintf("the hooks in %s were skipped: %v", f.path, err))
			continue
		}
		if len(c) > 0 {
			out = append(out, Source{Path: f.path, Project: f.project, Plugin: f.plugin.Plugin, Dir: f.plugin.Dir, Config: c})
		}
	}
	return out, problems
}

// digest identifies exactly the repository's hooks among srcs (empty: it
// has none), so consent covers those commands and a changed set asks again.
func digest(srcs []Source) string {
	var project []Source
	for _, s := range srcs {
		if s.Project {
			project = append(project, s)
		}
	}
	if len(project) == 0 {
		return ""
	}
	b, _ := json.Marshal(project) // maps marshal in key order: stable
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// hook is one command to run for an event, with where it came from.
type hook struct {
	Command
	src *Source
}

// matching returns the commands of event whose matcher matches tool (a
// tandem tool name; empty for events without a tool), from srcs that may
// run. A tool matches by its tandem name or a Claude Code name standing
// for it (policy.ClaudeNames), so matchers written for Claude Code work.
func matching(srcs []Source, event, tool string, allowed func(*Source) bool) []hook {
	names := append([]string{tool}, policy.ClaudeNames(tool)...)
	var out []hook
	for i := range srcs {
		s := &srcs[i]
		if !allowed(s) {
			continue
		}
		for _, g := range s.Config[event] {
			re, err := compileMatcher(g.Matcher)
			if err != nil {
				continue // Parse refused it already
			}
			if tool != "" && re != nil && !matchesAny(re, names) {
				continue
			}
			for _, c := range g.Hooks {
				out = append(out, hook{Command: c, src: s})
			}
		}
	}
	return out
}

func matchesAny(re interface{ MatchString(string) bool }, names []string) bool {
	for _, n := range names {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}

// claudeName is the name a hook sees in tool_name: the most specific
// Claude Code name for a built-in tool (Bash for run_command), else the
// tandem name (MCP tools are mcp__server__tool in both).
func claudeName(tool string) string {
	if n := policy.ClaudeNames(tool); len(n) > 0 {
		return n[0]
	}
	return tool
}
