// Package custom loads the Markdown files users customize tandem with:
// slash commands (one .md file each) and skills (a folder with a SKILL.md),
// in tandem's own folders and in the formats users already keep for other
// agents (.claude/commands, .claude/skills, .agents/skills); and modes
// (.tandem/modes, the four built-ins embedded under builtin/modes) and
// subagent definitions (.tandem/agents, .claude/agents, the built-in
// explore under builtin/agents), which LoadModes and LoadSubagents read
// from the folders they are handed, in precedence order.
//
// The loaders take a Source: a root folder, where it sits (project, user,
// plugin) and an optional namespace, so a plugin can hand its own folders
// (or the files its manifest names, as Entries confined to its folder) to
// the same code and get names of the form <plugin>:<name>; a plugin's
// modes, agents and rules come as a Contribution (LoadContributions), whose
// names are all namespaced so that none can shadow another's. Set merges
// the sources of one session in precedence order and remembers a cheap
// stamp of what it read, so a session can tell when the files changed.
//
// The files come from repositories and plugins, so they are untrusted: a
// file that does not parse is reported as a Problem and skipped, never
// fatal; sizes are capped; nothing here follows a path out of the folder
// it was given. The package reads files and nothing else: it never writes,
// never runs a command, and knows nothing of sessions, the model or the
// editor protocols. Expanding a command's @file includes goes through a
// reader the caller supplies, which owns the confinement to the roots.
package custom
