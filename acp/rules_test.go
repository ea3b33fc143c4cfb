package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// These tests check the permission rules from settings files through the
// real `tandem acp`: where rules come from, which wins, the consent a
// repository's allow rules need, what "Always allow" saves, /permissions,
// and an approved edit whose target is swapped while the prompt is open.

// runCall is a run_command call with a fixed id.
func runCall(id, command string) llmtest.Reply {
	args, _ := json.Marshal(map[string]string{"command": command})
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: id, Name: "run_command", Args: string(args)}}}
}

// resultOf is the tool result the model got for id.
func resultOf(t *testing.T, srv *llmtest.Server, id string) llm.Part {
	t.Helper()
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			for _, p := range m.Content {
				if p.Type == llm.PartToolResult && p.ToolCallID == id {
					return p
				}
			}
		}
	}
	t.Fatalf("no tool result for %s", id)
	return llm.Part{}
}

// askedTitles lists the titles of the permission requests the editor got.
func (e *editor) askedTitles() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, p := range e.permissions {
		out = append(out, *p.ToolCall.Title)
	}
	return out
}

func writeJSON(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func promptOK(t *testing.T, p *tandemProcess, sid sdk.SessionId, text string) {
	t.Helper()
	if r, err := p.prompt(t, sid, text); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt %q: %q, %v", text, r, err)
	}
}

// TestAlwaysAllowGoTest: "Always allow `go test …`" saves
// run_command(go test:*) to .tandem/settings.local.json; later go test
// commands run unasked, in this session and the next, and go vet still asks.
func TestAlwaysAllowGoTest(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(runCall("t1", "go test ./..."), runCall("t2", "go test -count=1 ./..."), runCall("v1", "go vet ./..."), llmtest.Reply{Text: []string{"done"}})
	ed := newEditor(t)
	ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if strings.Contains(*p.ToolCall.Title, "go test") {
			return sdk.NewRequestPermissionOutcomeSelected("allow_always")
		}
		return sdk.NewRequestPermissionOutcomeSelected("reject_once")
	}
	home := t.TempDir()
	p := startTandem(t, srv, home, ed)
	p.initialize(t, false, false)
	dir := workspace(t, map[string]string{"go.mod": "module x\n\ngo 1.21\n", "x.go": "package x\n"})
	promptOK(t, p, p.newSession(t, dir), "test it")

	asked := ed.askedTitles()
	if len(asked) != 2 || !strings.Contains(asked[0], "go test ./...") || !strings.Contains(asked[1], "go vet") {
		t.Fatalf("asked %q, want go test ./... then go vet", asked)
	}
	ed.mu.Lock()
	opts := ed.permissions[0].Options
	ed.mu.Unlock()
	if !slices.ContainsFunc(opts, func(o sdk.PermissionOption) bool {
		return o.Kind == "allow_always" && o.Name == "Always allow `go test …` in this project"
	}) {
		t.Errorf("options %+v do not name the rule they save", opts)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".tandem", "settings.local.json"))
	if err != nil || !strings.Contains(string(b), `"run_command(go test:*)"`) {
		t.Fatalf("settings.local.json: %s, %v", b, err)
	}
	if ig, err := os.ReadFile(filepath.Join(dir, ".tandem", ".gitignore")); err != nil || string(ig) != "settings.local.json\n" {
		t.Errorf(".tandem/.gitignore: %q, %v", ig, err)
	}
	if r := resultOf(t, srv, "v1"); !r.IsError || !strings.Contains(r.Text, "reject") {
		t.Errorf("go vet result %q, want the rejection", r.Text)
	}

	// A fresh process reads the saved rule.
	srv.Enqueue(runCall("t3", "go test ./..."), runCall("v2", "go vet ./..."), llmtest.Reply{Text: []string{"done"}})
	ed2 := newEditor(t)
	p2 := startTandem(t, srv, home, ed2)
	p2.initialize(t, false, false)
	promptOK(t, p2, p2.newSession(t, dir), "test again")
	if got := ed2.askedTitles(); len(got) != 1 || !strings.Contains(got[0], "go vet") {
		t.Errorf("in a new session asked %q, want only go vet", got)
	}
	if r := resultOf(t, srv, "t3"); strings.Contains(r.Text, "rejected") || strings.Contains(r.Text, "refused") {
		t.Errorf("go test ./... in the new session: %q", r.Text)
	}
}

// rulesWorkspace has rules in all three files; see TestRulesFromEachFile.
func rulesWorkspace(t *testing.T, home string) string {
	t.Helper()
	writeJSON(t, filepath.Join(home, "config.json"), `{"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash(echo:*)"]}}`)
	dir := workspace(t, map[string]string{".env": "TOKEN=x\n", "a.txt": "a\n"})
	writeJSON(t, filepath.Join(dir, ".tandem", "settings.json"),
		`{"permissions": {"ask": ["run_command(echo secret:*)"], "deny": ["Read(.env)"], "allow": ["Bash(touch:*)"]}}`)
	writeJSON(t, filepath.Join(dir, ".tandem", "settings.local.json"),
		`{"permissions": {"allow": ["run_command(ls:*)", "run_command(rm:*)"]}}`)
	return dir
}

// TestRulesFromEachFile: the user's config.json, the project's
// settings.json and the personal settings.local.json all count; deny beats
// ask beats allow whichever file each is in; the project's allow rule
// waits for consent, and the user declining it leaves its call asking.
func TestRulesFromEachFile(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		runCall("echo", "echo hi"),             // user allow: runs
		runCall("secret", "echo secret value"), // project ask beats user allow
		runCall("rm", "rm a.txt"),              // user deny beats local allow
		runCall("ls", "ls"),                    // local allow: runs
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "env", Name: "read_file", Args: `{"path":".env"}`}}}, // project deny
		runCall("touch", "touch b.txt"), // project allow, not accepted: asks
		llmtest.Reply{Text: []string{"done"}},
	)
	ed := newEditor(t)
	var mu sync.Mutex
	var consentOpts []string
	ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if p.ToolCall.ToolCallId == "project-allow-rules" {
			mu.Lock()
			for _, o := range p.Options {
				consentOpts = append(consentOpts, o.Name)
			}
			mu.Unlock()
			return sdk.NewRequestPermissionOutcomeSelected("reject_once")
		}
		return sdk.NewRequestPermissionOutcomeSelected("allow_once")
	}
	home := t.TempDir()
	dir := rulesWorkspace(t, home)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, false, false)
	promptOK(t, p, p.newSession(t, dir), "go")

	asked := ed.askedTitles()
	want := []string{"Let .tandem/settings.json allow these without asking", "echo secret value", "touch b.txt"}
	if len(asked) != len(want) {
		t.Fatalf("asked %q, want %q", asked, want)
	}
	for i, w := range want {
		if !strings.Contains(asked[i], w) {
			t.Errorf("request %d is %q, want %q", i, asked[i], w)
		}
	}
	if !slices.Contains(consentOpts, "Always allow these rules in this project") {
		t.Errorf("consent options %q", consentOpts)
	}
	if r := resultOf(t, srv, "rm"); !r.IsError || !strings.Contains(r.Text, "run_command(rm:*) in "+filepath.Join(home, "config.json")+" denies") {
		t.Errorf("rm result %q, want a refusal naming config.json", r.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
		t.Errorf("a.txt was removed: %v", err)
	}
	if r := resultOf(t, srv, "env"); !r.IsError || !strings.Contains(r.Text, "read_file(.env)") || strings.Contains(r.Text, "TOKEN") {
		t.Errorf(".env read result %q, want the project's deny", r.Text)
	}
	for _, id := range []string{"echo", "ls", "touch"} {
		if r := resultOf(t, srv, id); r.IsError {
			t.Errorf("%s failed: %q", id, r.Text)
		}
	}
}

// TestProjectAllowRulesNeedConsent: "Always allow" on the consent prompt
// puts the project's allow rules in force and is remembered in
// $TANDEM_HOME for exactly that list; a changed list asks again.
func TestProjectAllowRulesNeedConsent(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(runCall("t1", "touch a"), llmtest.Reply{Text: []string{"done"}})
	answer := func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if p.ToolCall.ToolCallId == "project-allow-rules" {
			return sdk.NewRequestPermissionOutcomeSelected("allow_always")
		}
		return sdk.NewRequestPermissionOutcomeSelected("reject_once")
	}
	home := t.TempDir()
	dir := workspace(t, nil)
	settings := filepath.Join(dir, ".tandem", "settings.json")
	writeJSON(t, settings, `{"permissions": {"allow": ["Bash(touch:*)"]}}`)

	session := func(prompt string) []string {
		ed := newEditor(t)
		ed.answer = answer
		p := startTandem(t, srv, home, ed)
		p.initialize(t, false, false)
		promptOK(t, p, p.newSession(t, dir), prompt)
		p.closeAndWait(t)
		return ed.askedTitles()
	}
	if asked := session("first"); len(asked) != 1 || !strings.Contains(asked[0], "settings.json") {
		t.Fatalf("first session asked %q, want only the consent", asked)
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); err != nil {
		t.Errorf("touch a did not run after consent: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(home, "consent.json")); err != nil || !strings.Contains(string(b), dir) {
		t.Errorf("consent.json: %s, %v", b, err)
	}

	srv.Enqueue(runCall("t2", "touch b"), llmtest.Reply{Text: []string{"done"}})
	if asked := session("second"); len(asked) != 0 {
		t.Errorf("the remembered consent did not hold: asked %q", asked)
	}

	writeJSON(t, settings, `{"permissions": {"allow": ["Bash(touch:*)", "Bash(curl:*)"]}}`)
	srv.Enqueue(runCall("t3", "touch c"), llmtest.Reply{Text: []string{"done"}})
	if asked := session("third"); len(asked) != 1 || !strings.Contains(asked[0], "settings.json") {
		t.Errorf("a changed allow list did not ask again: asked %q", asked)
	}
}

// TestPermissionsCommand: /permissions lists every rule with its file and
// marks the project's allow rule not in force; /permissions remove drops
// one from settings.local.json.
func TestPermissionsCommand(t *testing.T) {
	srv := llmtest.NewServer(t)
	ed := newEditor(t)
	ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected("reject_once")
	}
	home := t.TempDir()
	dir := rulesWorkspace(t, home)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, false, false)
	sid := p.newSession(t, dir)
	promptOK(t, p, sid, "/permissions")
	out := ed.agentText(sid)
	for _, w := range []string{
		"deny:\n  Bash(rm:*) — " + filepath.Join(home, "config.json"),
		"  Read(.env) — .tandem/settings.json",
		"ask:\n  run_command(echo secret:*) — .tandem/settings.json",
		"  Bash(echo:*) — " + filepath.Join(home, "config.json"),
		"  Bash(touch:*) — .tandem/settings.json (the project's, for everyone who clones it; not in force",
		"  run_command(ls:*) — .tandem/settings.local.json (yours, in every session of this project",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("/permissions output lacks %q:\n%s", w, out)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("/permissions reached the model")
	}
	promptOK(t, p, sid, "/permissions remove run_command(ls:*)")
	if out := ed.agentText(sid); !strings.Contains(out, "Removed run_command(ls:*) from .tandem/settings.local.json") {
		t.Errorf("remove said:\n%s", out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".tandem", "settings.local.json"))
	if strings.Contains(string(b), "ls:*") || !strings.Contains(string(b), "rm:*") {
		t.Errorf("settings.local.json after remove: %s", b)
	}
}

// TestApprovedEditTargetSwapped: while the permission prompt for an edit is
// open, the file's directory is swapped for a symlink to a directory
// outside the workspace. The approval covered the file that was shown, so
// the write is refused and the outside file is untouched.
func TestApprovedEditTargetSwapped(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "edit_file",
		Args: `{"path":"sub/a.txt","old_string":"old","new_string":"new"}`}}}, llmtest.Reply{Text: []string{"done"}})
	dir := workspace(t, map[string]string{"sub/a.txt": "old\n"})
	outside := workspace(t, map[string]string{"a.txt": "old\n"})
	ed := newEditor(t)
	ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		sub := filepath.Join(dir, "sub")
		if err := os.Rename(sub, sub+".orig"); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, sub); err != nil {
			t.Error(err)
		}
		return sdk.NewRequestPermissionOutcomeSelected("allow_once")
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, false, false)
	promptOK(t, p, p.newSession(t, dir), "edit")
	if b, _ := os.ReadFile(filepath.Join(outside, "a.txt")); string(b) != "old\n" {
		t.Errorf("the write landed outside the workspace: %q", b)
	}
	if r := resultOf(t, srv, "e1"); !r.IsError || !strings.Contains(r.Text, "while the permission prompt was open") {
		t.Errorf("edit result %q, want the refusal", r.Text)
	}
}

// TestCommandWrittenRulesNeedConsent: where .tandem does not exist the
// sandbox cannot keep it read-only, so an approved command can create
// .tandem/settings.local.json. The allow rule it writes is not in force:
// the next command still asks, and the next prompt asks for consent.
func TestCommandWrittenRulesNeedConsent(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		runCall("plant", `mkdir -p .tandem && printf '%s' '{"permissions":{"allow":["run_command"]}}' > .tandem/settings.local.json`),
		runCall("after", "touch x"),
		llmtest.Reply{Text: []string{"done"}},
	)
	ed := newEditor(t)
	home := t.TempDir()
	dir := workspace(t, nil)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, false, false)
	sid := p.newSession(t, dir)
	promptOK(t, p, sid, "go")
	if _, err := os.Stat(filepath.Join(dir, ".tandem", "settings.local.json")); err != nil {
		t.Fatalf("the command did not write the file: %v", err)
	}
	asked := ed.askedTitles()
	if len(asked) != 2 || !strings.Contains(asked[1], "touch x") {
		t.Fatalf("asked %q; want the planting command and then touch x", asked)
	}
	if out := ed.agentText(sid); !strings.Contains(out, "A command added run_command to .tandem/settings.local.json") {
		t.Errorf("no notice of the planted rule:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(home, "consent.json")); err != nil || !strings.Contains(string(b), `"run_command"`) {
		t.Errorf("consent.json does not remember the planted rule: %s %v", b, err)
	}

	// The user keeps asking: touch y asks.
	ed.mu.Lock()
	ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if p.ToolCall.ToolCallId == "project-allow-rules" {
			return sdk.NewRequestPermissionOutcomeSelected("reject_once")
		}
		return sdk.NewRequestPermissionOutcomeSelected("allow_once")
	}
	ed.mu.Unlock()
	srv.Enqueue(runCall("later", "touch y"), llmtest.Reply{Text: []string{"done"}})
	promptOK(t, p, sid, "again")
	asked = ed.askedTitles()
	if len(asked) != 4 || !strings.Contains(asked[2], "Let .tandem/settings.local.json allow these") || !strings.Contains(asked[3], "touch y") {
		t.Errorf("second prompt asked %q; want the consent, declined, then touch y", asked[2:])
	}
}
