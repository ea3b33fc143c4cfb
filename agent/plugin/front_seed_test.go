package plugin_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// seedPlugin writes a plugin folder laid out as the plugin design this
// system follows shows one (seed 003): contributes.commands and
// contributes.skills entries without a path, their files where the layout
// puts them (commands/<name>.md, skills/<name>/SKILL.md), a mode defined
// in the manifest itself (slug, display name, roleDefinition, tools), a
// streamable-http MCP server, a rules file for two modes and a UI
// module; and a private command, skill and mode (private: true), which
// users are not offered but which still run by their qualified names.
func seedPlugin(t *testing.T, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "my-org-ci")
	writeFiles(t, dir, map[string]string{
		"commands/deploy.md":                 "DEPLOY-BODY: deploy the current project to $ARGUMENTS.\n",
		"skills/deploy-to-staging/SKILL.md":  "---\nname: deploy-to-staging\ndescription: Deploy the current branch to staging\n---\nSTAGING-SKILL-BODY\n",
		"rules/deploy-rules.md":              "DEPLOY-RULE: never deploy on a Friday.\n",
		"ui/badge.js":                        "export default function Badge() { return null }\n",
		"skills/deploy-to-staging/steps.txt": "1. build\n",
		"commands/rollback.md":               "ROLLBACK-BODY: roll back $ARGUMENTS.\n",
		"skills/verify-deploy/SKILL.md":      "---\nname: verify-deploy\ndescription: Check a deployment answers\n---\nVERIFY-SKILL-BODY\n",
	})
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "my-org-ci", "version": "1.0.0",
		"description": "CI/CD integration: deploy modes and commands.",
		"author":      "DevOps Team", "homepage": "https://github.com/my-org/ci-plugin", "license": "MIT",
		"permissions": map[string]any{"modes": true, "skills": true, "commands": true, "rules": true, "mcpServers": true,
			"ui": []string{"chat-input-toolbar"}},
		"contributes": map[string]any{
			"modes": []map[string]any{{"slug": "deploy", "name": "🚀 Deploy",
				"roleDefinition": "DEPLOY-ROLE: you ship releases.", "tools": []string{"read", "execute", "mcp"}},
				{"slug": "verifier", "name": "Verifier", "roleDefinition": "VERIFIER-ROLE: you check releases.",
					"tools": []string{"read"}, "private": true}},
			"skills": []map[string]any{{"name": "deploy-to-staging", "description": "Deploy the current branch to staging"},
				{"name": "verify-deploy", "private": true}},
			"commands": []map[string]any{{"name": "deploy", "description": "Deploy the current project", "argumentHint": "<environment>"},
				{"name": "rollback", "description": "Roll back a deployment", "private": true}},
			// A port nothing listens on: the server fails at once and the
			// session goes on without it.
			"mcpServers": map[string]any{"jenkins": map[string]any{"type": "streamable-http", "url": "http://127.0.0.1:1/mcp"}},
			"rules":      []map[string]any{{"path": "rules/deploy-rules.md", "modes": []string{"deploy", "code"}}},
			"ui":         []map[string]any{{"region": "chat-input-toolbar", "entry": "ui/badge.js"}},
		},
	})
	return dir
}

// A seed-shaped plugin through the real binary: `tandem plugin install`,
// `list` and `enable` take it, and under `tandem acp` its command is
// offered as /my-org-ci:deploy and expands with its argument, its skill is
// in the system prompt, its rule joins code mode, and its inline mode is
// offered, selectable, states its role and offers only its tool groups.
// The private command, skill and mode are in neither the slash-command
// list nor the mode selector, yet /my-org-ci:rollback runs, the model is
// told of my-org-ci:verify-deploy, and my-org-ci:verifier is entered by
// its slug and governs the turn's tools.
func TestFrontSeedShapedPlugin(t *testing.T) {
	home, root, src := t.TempDir(), t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	dir := seedPlugin(t, src)
	if out := cli(t, home, "install", dir); !strings.Contains(out, "installed my-org-ci 1.0.0") {
		t.Fatalf("install: %s", out)
	}
	if flat := strings.Join(strings.Fields(cli(t, home, "list")), " "); !strings.Contains(flat, "my-org-ci 1.0.0 user disabled") {
		t.Fatalf("list: %s", flat)
	}
	if out := cli(t, home, "enable", "my-org-ci"); !strings.Contains(out, "enabled my-org-ci 1.0.0") ||
		!strings.Contains(out, "its 1 ui contribution(s) are not shown") {
		t.Fatalf("enable: %s", out)
	}

	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"deployed"}}, llmtest.Reply{Text: []string{"rolled back"}},
		llmtest.Reply{Text: []string{"shipped"}}, llmtest.Reply{Text: []string{"verified"}})
	f := startFront(t, "acp", home, root, srv)
	sid := f.newSession(t, root, "code")
	offered := f.awaitOffered()
	if !slices.Contains(offered, "my-org-ci:deploy") || !slices.Contains(offered, "my-org-ci:deploy-to-staging") {
		t.Errorf("available_commands_update lacks my-org-ci:deploy or its skill: %v", offered)
	}
	if slices.Contains(offered, "my-org-ci:rollback") || slices.Contains(offered, "my-org-ci:verify-deploy") {
		t.Errorf("available_commands_update offers a private command or skill: %v", offered)
	}
	offers := func(cur string, ids []string) bool { return cur == "code" && slices.Contains(ids, "my-org-ci:deploy") }
	cur, ids := f.modes(t, sid, "code", offers)
	if !offers(cur, ids) {
		t.Fatalf("modes offered: %s %v", cur, ids)
	}
	if slices.Contains(ids, "my-org-ci:verifier") {
		t.Errorf("the mode selector offers the private mode: %v", ids)
	}
	f.prompt(t, sid, "/my-org-ci:deploy staging")
	f.prompt(t, sid, "/my-org-ci:rollback production")
	f.setMode(t, sid, "my-org-ci:deploy")
	f.prompt(t, sid, "ship it")
	f.setMode(t, sid, "my-org-ci:verifier")
	f.prompt(t, sid, "check it")

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, rollback, deploy, verifier := reqs[0], reqs[1], reqs[2], reqs[3]
	if got := rollback.LastUserText(); !strings.Contains(got, "ROLLBACK-BODY: roll back production.") {
		t.Errorf("the private command's turn: %q", got)
	}
	if !strings.Contains(first.System, "my-org-ci:verify-deploy") {
		t.Errorf("the private skill is not in the model's skill list:\n%s", first.System)
	}
	if got := verifier.LastUserText(); !strings.Contains(got, "VERIFIER-ROLE") {
		t.Errorf("the private mode's turn: %q", got)
	}
	if slices.Contains(verifier.Tools, "run_command") || !slices.Contains(verifier.Tools, "read_file") {
		t.Errorf("the private verifier mode (read) offers %v", verifier.Tools)
	}
	if got := first.LastUserText(); !strings.Contains(got, "DEPLOY-BODY: deploy the current project to staging.") || !strings.Contains(got, "DEPLOY-RULE") {
		t.Errorf("the command's turn: %q", got)
	}
	if !strings.Contains(first.System, "my-org-ci:deploy-to-staging") || !strings.Contains(first.System, "Deploy the current branch to staging") {
		t.Errorf("the skill is not offered in the system prompt:\n%s", first.System)
	}
	if got := deploy.LastUserText(); !strings.Contains(got, "DEPLOY-ROLE") || !strings.Contains(got, "DEPLOY-RULE") {
		t.Errorf("the deploy mode's turn: %q", got)
	}
	if slices.Contains(deploy.Tools, "edit_file") || !slices.Contains(deploy.Tools, "run_command") || !slices.Contains(deploy.Tools, "read_file") {
		t.Errorf("deploy mode (read, execute, mcp) offers %v", deploy.Tools)
	}
}

// The seed-shaped command keeps the manifest's description and argument
// hint (what editors show beside /my-org-ci:deploy), and the skill its
// folder.
func TestSeedShapedEntries(t *testing.T) {
	r := newRig(t)
	dir := seedPlugin(t, filepath.Join(r.home, "plugins"))
	enable(t, r.home, "my-org-ci", dir, nil)
	set := custom.Load(r.rt.CustomSources(r.root), func(string) bool { return false })
	c, ok := set.Command("my-org-ci:deploy")
	if !ok || c.Description != "Deploy the current project" || c.ArgumentHint != "<environment>" {
		t.Errorf("command %+v %v (problems %v)", c, ok, set.Problems)
	}
	if len(set.Problems) != 0 {
		t.Errorf("problems: %v", set.Problems)
	}
}
