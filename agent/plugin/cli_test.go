package plugin_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// The CLI as a user meets it: a Claude Code plugin folder installs and is
// listed, a plugin with an unmet dependency says why it does not run, a
// manifest with unknown fields is refused naming them, and remove forgets.
func TestCLI(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	cc := filepath.Join(src, "cc-tools")
	os.MkdirAll(filepath.Join(cc, ".claude-plugin"), 0o755)
	os.MkdirAll(filepath.Join(cc, "commands"), 0o755)
	os.WriteFile(filepath.Join(cc, ".claude-plugin", "plugin.json"), []byte(`{"name":"cc-tools","version":"0.2.0","author":{"name":"x"}}`), 0o644)
	os.WriteFile(filepath.Join(cc, "commands", "hello.md"), []byte("Say hello.\n"), 0o644)
	if out := cli(t, home, "install", cc); !strings.Contains(out, "installed cc-tools 0.2.0") {
		t.Fatalf("install: %s", out)
	}
	needy := filepath.Join(src, "needy")
	os.MkdirAll(needy, 0o755)
	writeJSON(t, filepath.Join(needy, "plugin.json"), map[string]any{"name": "needy", "version": "1.0.0", "dependencies": []string{"helper"}})
	cli(t, home, "install", needy)
	if out := cli(t, home, "enable", "needy"); !strings.Contains(out, "it does not run yet: it needs the plugin helper, which is not installed") {
		t.Errorf("enable: %s", out)
	}
	out := cli(t, home, "list")
	// Compared with single spaces: the columns are as wide as the longest name.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"checkpoints 1.0.0 bundled enabled", "cc-tools 0.2.0 user disabled", "needy 1.0.0 user blocked: needs the plugin helper"} {
		if !strings.Contains(flat, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	bad := filepath.Join(src, "bad")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "plugin.json"), []byte(`{"name":"bad","version":"1.0.0","autoRun":true}`), 0o644)
	if out, err := cliErr(t, home, "install", bad); err == nil || !strings.Contains(out, "unknown fields: autoRun") {
		t.Errorf("install bad: %v %s", err, out)
	}
	cli(t, home, "remove", "needy")
	if out := cli(t, home, "list"); strings.Contains(out, "needy") {
		t.Errorf("removed but listed:\n%s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "plugins.json")); strings.Contains(string(b), "needy") {
		t.Errorf("removed but remembered: %s", b)
	}
}

// Settings are shown with the schema's defaults and checked before they
// are recorded.
func TestCLISettings(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	dir := filepath.Join(src, "conf")
	os.MkdirAll(dir, 0o755)
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{"name": "conf", "version": "1.0.0",
		"config": map[string]any{"type": "object", "properties": map[string]any{
			"level": map[string]any{"type": "string", "enum": []string{"low", "high"}, "default": "low"},
			"n":     map[string]any{"type": "integer"}}}})
	cli(t, home, "install", dir)
	if out := cli(t, home, "settings", "conf"); strings.TrimSpace(out) != `{"level":"low"}` {
		t.Errorf("defaults: %s", out)
	}
	if out := cli(t, home, "settings", "conf", `{"n":2}`); strings.TrimSpace(out) != `{"level":"low","n":2}` {
		t.Errorf("set: %s", out)
	}
	if out, err := cliErr(t, home, "settings", "conf", `{"level":"extreme"}`); err == nil {
		t.Errorf("a value outside the schema was recorded: %s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "plugins.json")); !strings.Contains(string(b), `"n": 2`) || strings.Contains(string(b), "extreme") {
		t.Errorf("plugins.json: %s", b)
	}
}

// `tandem plugin list` finds plugins in every folder: the user's, the
// project's .tandem/plugins, and the absolute entries of
// TANDEM_PLUGIN_DIRS (a relative one is ignored).
func TestCLIListsEveryFolder(t *testing.T) {
	home, root, prov := t.TempDir(), t.TempDir(), t.TempDir()
	for _, p := range []struct{ dir, name string }{
		{filepath.Join(home, "plugins"), "mine"}, {filepath.Join(root, ".tandem", "plugins"), "proj"},
		{prov, "prov"}, {filepath.Join(root, "rel"), "relative"},
	} {
		must(t, os.MkdirAll(filepath.Join(p.dir, p.name), 0o755))
		writeJSON(t, filepath.Join(p.dir, p.name, "plugin.json"), map[string]any{"name": p.name, "version": "1.0.0"})
	}
	cmd := exec.Command(testenv.Tandem(t), "plugin", "list")
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+home, "TANDEM_PLUGIN_DIRS="+prov+string(os.PathListSeparator)+"rel")
	cmd.Dir = root
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{"mine 1.0.0 user disabled", "proj 1.0.0 project disabled", "prov 1.0.0 provisioned disabled"} {
		if !strings.Contains(flat, want) {
			t.Errorf("list lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(flat, "relative") {
		t.Errorf("a relative TANDEM_PLUGIN_DIRS entry was read:\n%s", b)
	}
}

// A plugin whose manifest is refused is still listed, with the reason,
// and enabling it says why it cannot be.
func TestCLIRefusedPluginListedWithReason(t *testing.T) {
	home := t.TempDir()
	bad := filepath.Join(home, "plugins", "bad-folder")
	must(t, os.MkdirAll(bad, 0o755))
	must(t, os.WriteFile(filepath.Join(bad, "plugin.json"), []byte(`{"name":"bad","version":"1.0.0","autoRun":true}`), 0o644))
	flat := strings.Join(strings.Fields(cli(t, home, "list")), " ")
	if want := "bad - user refused: plugin.json has unknown fields: autoRun " + bad; !strings.Contains(flat, want) {
		t.Errorf("list lacks %q:\n%s", want, flat)
	}
	if out := cli(t, home, "list", "--json"); !strings.Contains(out, `"state": "refused"`) || !strings.Contains(out, `"error": "plugin.json has unknown fields: autoRun"`) {
		t.Errorf("list --json: %s", out)
	}
	out, err := cliErr(t, home, "enable", "bad")
	if err == nil || !strings.Contains(out, "bad cannot be enabled: its manifest in "+bad+" is refused: plugin.json has unknown fields: autoRun") {
		t.Errorf("enable: %v %s", err, out)
	}
}
