package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestManifestRefusesUnknownFieldsNamingThem(t *testing.T) {
	_, err := ParseManifest([]byte(`{"name":"x","version":"1.0.0","colour":"red",
		"permissions":{"tools":true,"root":true},"contributes":{"themes":[],"commands":[{"name":"a","path":"a.md","icon":"!"}]}}`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, f := range []string{"colour", "permissions.root", "contributes.themes", "contributes.commands[0].icon"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%q does not name %s", err, f)
		}
	}
}

func TestManifestRules(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"name":"Bad Name","version":"1.0.0"}`, "lower-case"},
		{`{"name":"x","version":"one"}`, "version"},
		{`{"name":"x","version":"1.0.0","hookTimeoutMs":60001}`, "hookTimeoutMs"},
		{`{"name":"x","version":"1.0.0","apiVersion":"2"}`, "apiVersion"},
		{`{"name":"x","version":"1.0.0","tandemVersion":">=banana"}`, "tandemVersion"},
		{`{"name":"x","version":"1.0.0","contributes":{"modes":[{"name":"m","path":"m.md"}]}}`, "needs permissions.modes"},
		{`{"name":"x","version":"1.0.0","permissions":{"rules":true},"contributes":{"rules":[{"path":"../../etc/passwd"}]}}`, "leaves the plugin folder"},
		{`{"name":"x","version":"1.0.0","dependencies":["x"]}`, "dependency"},
		{`{"name":"x","version":"1.0.0","config":{"type":"object","properties":5}}`, "config"}, {`{"name":"x","version":"1.0.0","config":{"$ref":"#/nowhere"}}`, "config"},
	} {
		if _, err := ParseManifest([]byte(tc.json)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one about %s", tc.json, err, tc.want)
		}
	}
	m, err := ParseManifest([]byte(`{"name":"x","version":"1.0.0"}`))
	if err != nil || m.HookTimeoutMs != DefaultHookTimeoutMs {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestSettingsValidatedWithDefaults(t *testing.T) {
	m, err := ParseManifest([]byte(`{"name":"x","version":"1.0.0","config":{"type":"object",
		"properties":{"level":{"type":"string","enum":["low","high"],"default":"low"},"n":{"type":"integer"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Settings(json.RawMessage(`{"n":3}`))
	if err != nil || string(got) != `{"level":"low","n":3}` {
		t.Errorf("%s %v", got, err)
	}
	if _, err := m.Settings(json.RawMessage(`{"level":"extreme"}`)); err == nil {
		t.Error("a value outside the enum was accepted")
	}
}

func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		r, v string
		in   bool
	}{
		{">=1.2.0 <2", "1.9.9", true}, {">=1.2.0 <2", "2.0.0", false},
		{"^1.4", "1.9.0", true}, {"^1.4", "1.3.9", false}, {"^0.3.1", "0.4.0", false},
		{"~1.4.2", "1.4.9", true}, {"~1.4.2", "1.5.0", false}, {"1.x", "1.7.0", true},
		{"*", "9.9.9", true}, {"<1 || >=3", "3.1.0", true}, {"<1 || >=3", "2.0.0", false},
		{">=1.0.0", "1.0.0-rc.1", false},
	} {
		r, err := ParseRange(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := ParseVersion(tc.v)
		if r.Contains(v) != tc.in {
			t.Errorf("%s contains %s: %v", tc.r, tc.v, !tc.in)
		}
	}
}

func folder(t *testing.T, root, name, manifest string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestResolveConsentDependenciesAndShadowing(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	a := folder(t, user, "a", `{"name":"a","version":"1.0.0","dependencies":["b"]}`)
	b := folder(t, user, "b", `{"name":"b","version":"1.0.0","tandemVersion":">=2"}`)
	c := folder(t, user, "c", `{"name":"c","version":"1.0.0","dependencies":["d"]}`)
	d := folder(t, user, "d", `{"name":"d","version":"1.0.0","dependencies":["c"]}`)
	shadow := folder(t, project, "c", `{"name":"c","version":"9.0.0"}`)
	// A Claude Code plugin with a command folder and a hooks file.
	cc := filepath.Join(user, "cc")
	os.MkdirAll(filepath.Join(cc, ".claude-plugin"), 0o755)
	os.MkdirAll(filepath.Join(cc, "commands"), 0o755)
	os.MkdirAll(filepath.Join(cc, "hooks"), 0o755)
	os.WriteFile(filepath.Join(cc, ".claude-plugin", "plugin.json"), []byte(`{"name":"cc","author":{"name":"x"}}`), 0o644)
	os.WriteFile(filepath.Join(cc, "hooks", "hooks.json"), []byte(`{}`), 0o644)

	found, probs := Discover(Roots{User: user, Project: project})
	if len(probs) != 0 || len(found) != 6 {
		t.Fatalf("found %d, problems %v", len(found), probs)
	}
	st := &State{Version: 1, Plugins: map[string]*Choice{
		"a": {Enabled: true, Dir: a}, "b": {Enabled: true, Dir: b},
		"c": {Enabled: true, Dir: c}, "d": {Enabled: true, Dir: d},
	}}
	by := map[string]*Status{}
	for _, s := range Resolve(found, st, "1.5.0") {
		if s.Dir == shadow {
			if !s.Shadowed || s.Enabled {
				t.Errorf("the project's c is not a separate, disabled plugin: %+v", s)
			}
			continue
		}
		by[s.Manifest.Name] = s
	}
	if !strings.Contains(by["b"].Blocked, "needs tandem >=2") || by["b"].Active {
		t.Errorf("b: %+v", by["b"])
	}
	if !strings.Contains(by["a"].Blocked, "needs the plugin b, which is blocked") {
		t.Errorf("a: %q", by["a"].Blocked)
	}
	if by["c"].Active || by["d"].Active || !strings.Contains(by["c"].Blocked+by["d"].Blocked, "cycle") {
		t.Errorf("cycle: c %q d %q", by["c"].Blocked, by["d"].Blocked)
	}
	if cp := by["cc"]; cp.Claude == nil || cp.Claude.Commands == "" || cp.Claude.Hooks == "" || cp.Enabled {
		t.Errorf("claude plugin: %+v", cp)
	}
}

// The contribution shapes of the plugin design tandem follows (seed 003):
// commands and skills by name alone, their files where the layout puts
// them; a mode defined in the manifest; a streamable-http MCP server.
func TestManifestSeedShapes(t *testing.T) {
	m, err := ParseManifest([]byte(`{"name":"my-org-ci","version":"1.0.0",
		"permissions":{"modes":true,"skills":true,"commands":true,"rules":true,"mcpServers":true},
		"contributes":{
			"modes":[{"slug":"deploy","name":"🚀 Deploy","roleDefinition":"...","tools":["read","execute","mcp"]},{"name":"plain"}],
			"skills":[{"name":"deploy-to-staging","description":"Deploy the current branch to staging"}],
			"commands":[{"name":"deploy","description":"Deploy the current project","argumentHint":"<environment>"}],
			"mcpServers":{"jenkins":{"type":"streamable-http","url":"https://jenkins.example.com/mcp"}},
			"rules":[{"path":"rules/deploy-rules.md","modes":["deploy","code"]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := m.Contributes
	if c.Commands[0].Path != "commands/deploy.md" || c.Commands[0].ArgumentHint != "<environment>" || c.Skills[0].Path != "skills/deploy-to-staging" {
		t.Errorf("commands %+v skills %+v", c.Commands, c.Skills)
	}
	if d := c.Modes[0]; d.ID() != "deploy" || !d.Inline() || d.Path != "" {
		t.Errorf("inline mode %+v", d)
	}
	if p := c.Modes[1]; p.ID() != "plain" || p.Inline() || p.Path != "modes/plain.md" {
		t.Errorf("file mode %+v", p)
	}
	if _, err := ParseManifest([]byte(`{"name":"x","version":"1.0.0","permissions":{"ui":["task-header"]},
		"contributes":{"ui":[{"region":"chat-input-toolbar","entry":"ui/badge.js"}]}}`)); err == nil || !strings.Contains(err.Error(), "needs permissions.ui") {
		t.Errorf("a ui region the permissions do not list: %v", err)
	}
	servers, err := MCPServers(&Plugin{Manifest: m}, "/p", "/d")
	if err != nil || len(servers) != 1 || servers[0].Name != "my-org-ci:jenkins" || servers[0].Type != "http" {
		t.Errorf("servers %+v %v", servers, err)
	}
	for _, tc := range []struct{ mode, want string }{
		{`{"slug":"x","name":"X","path":"x.md","roleDefinition":"r"}`, "not both"},
		{`{"slug":"x","name":"X","tools":["browser"]}`, "not a tool group"},
		{`{"slug":"Bad Slug","name":"X","roleDefinition":"r"}`, "lower-case"},
	} {
		_, err := ParseManifest([]byte(`{"name":"x","version":"1.0.0","permissions":{"modes":true},"contributes":{"modes":[` + tc.mode + `]}}`))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.mode, err, tc.want)
		}
	}
}

// The seed's private: true on a command, a skill and a mode (inline or
// from a file) is read, not refused as an unknown field; left out, an
// entry is public. A private flag elsewhere is still unknown.
func TestManifestPrivateEntries(t *testing.T) {
	m, err := ParseManifest([]byte(`{"name":"my-org-ci","version":"1.0.0",
		"permissions":{"modes":true,"skills":true,"commands":true},
		"contributes":{
			"modes":[{"slug":"verifier","name":"Verifier","roleDefinition":"r","private":true},{"name":"plain","private":true},{"slug":"deploy","roleDefinition":"r"}],
			"skills":[{"name":"verify-deploy","description":"d","private":true},{"name":"open"}],
			"commands":[{"name":"rollback","private":true},{"name":"deploy"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := m.Contributes
	if !c.Commands[0].Private || c.Commands[1].Private || !c.Skills[0].Private || c.Skills[1].Private {
		t.Errorf("commands %+v skills %+v", c.Commands, c.Skills)
	}
	if !c.Modes[0].Private || !c.Modes[0].Inline() || !c.Modes[1].Private || c.Modes[1].Inline() || c.Modes[2].Private {
		t.Errorf("modes %+v", c.Modes)
	}
	_, err = ParseManifest([]byte(`{"name":"x","version":"1.0.0","permissions":{"rules":true},
		"contributes":{"rules":[{"path":"r.md","private":true}]}}`))
	if err == nil || !strings.Contains(err.Error(), "contributes.rules[0].private") {
		t.Errorf("private on a rule: %v", err)
	}
}
