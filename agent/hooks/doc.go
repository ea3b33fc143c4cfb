// Package hooks runs Claude Code's command hooks under tandem, so the hook
// scripts users already keep work unchanged: the "hooks" section of
// settings files and a Claude Code plugin's hooks/hooks.json, with the
// events PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart and
// SessionEnd, each a list of {matcher, hooks: [{type: "command", command,
// timeout}]}. A hook is a shell command; it reads the event as JSON on
// stdin and answers with its exit code (0 go on, 2 block with stderr as
// the reason, anything else a warning to the user) or JSON on stdout.
//
// Hooks reach the turn as contributors on agent.Pipeline's seams
// (Register). Where hooks come from:
//
//	$TANDEM_HOME/config.json, ~/.claude/settings.json     the user's: run
//	<root>/.tandem/settings{,.local}.json,
//	<root>/.claude/settings{,.local}.json                 the repository's:
//	                                                      run once the user agrees
//	hooks/hooks.json of enabled Claude Code plugins       run (enabling was the consent)
//
// What this package must never do: run a repository's hook before the
// user agreed to exactly that set of hooks; let a hook that fails, hangs or
// prints garbage fail a turn (it is skipped and the user told); hand a hook
// tandem's secrets (commands run like every command tandem runs:
// agent/local, its sandbox, an environment without secrets); write to
// stdout.
package hooks
