// Package settings reads the permission rules users keep in files and
// writes the ones a permission prompt's "Always allow" saves.
//
// Three files hold rules, each a JSON object whose "permissions" key has
// "allow", "ask" and "deny" lists of policy rules (Claude Code's shape and
// tool names work too):
//
//	$TANDEM_HOME/config.json         the user's own, for every project
//	<root>/.tandem/settings.json     the project's, committed with it
//	<root>/.tandem/settings.local.json  the user's for this project, git-ignored
//
// A repository's committed rules come from whoever wrote the repository,
// so they may restrict (deny, ask) freely but widen (allow) only once the
// user has accepted them: Set marks them inactive until then, and Consents
// remembers an acceptance per project and per exact list, so a changed list
// asks again. A settings.local.json that git tracks counts as committed,
// and allow rules a command wrote into it (LocalState.Added,
// Consents.MarkPlanted) wait for consent the same way.
//
// The package decides nothing (agent/policy does) and asks no one (the
// session does); it never writes anything but settings.local.json, its
// .gitignore and the consent file in $TANDEM_HOME, and it never follows a
// symlink when it writes.
package settings
