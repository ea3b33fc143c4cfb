package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/plugin"
	"github.com/tandemhq/tandem/agent/plugin/bundled"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// pluginRuntime is the plugin runtime of this process: plugins under
// $TANDEM_HOME/plugins, <root>/.tandem/plugins and TANDEM_PLUGIN_DIRS.
func (m *Main) pluginRuntime(home string, log *slog.Logger, provider llm.Provider, model string) *plugin.Runtime {
	return plugin.New(plugin.Options{
		Home:        home,
		Bundled:     bundled.FS,
		Sandbox:     sandbox.DecodeSettings(os.Getenv(sandbox.SettingsEnv)),
		Provider:    provider,
		Model:       model,
		Provisioned: plugin.ProvisionedDirs(m.Getenv("TANDEM_PLUGIN_DIRS")),
		Version:     currentBuild().PluginVersion(),
		Environ:     os.Environ(),
		Log:         log,
		Self:        self(),
		InProcess:   bundledPlugin,
	})
}

// withPlugins wires the plugin runtime into cfg: its contributors on the
// turn pipeline, its command and skill folders, and its modes, agents and
// rules. Plugins the user
// allowed to make model calls use cfg.Provider.
func (m *Main) withPlugins(cfg agent.Config, log *slog.Logger) agent.Config {
	rt := m.pluginRuntime(cfg.Home, log, cfg.Provider, cfg.Model)
	rt.Contribute(&cfg.Pipeline)
	cfg.CustomSources = rt.CustomSources
	cfg.Contributions = rt.Contributions
	m.withHooks(&cfg, rt, log)
	return cfg
}

const pluginUsage = `list | enable NAME [--allow-ai] | disable NAME | settings NAME [JSON] | install SOURCE [--project] [--overwrite] | remove NAME | pack FOLDER [-o FILE]`

// runPlugin manages plugins: what is installed, the user's consent, and
// installing, removing and packing plugin folders.
func runPlugin(ctx context.Context, m *Main, args []string) error {
	if len(args) == 0 {
		fmt.Fprintf(m.Stderr, "usage: tandem plugin %s\n", pluginUsage)
		return errUsage
	}
	verb, args := args[0], args[1:]
	fs := m.flags("plugin "+verb, pluginUsage)
	cwd := fs.String("cwd", ".", "the workspace whose .tandem/plugins to include")
	asJSON := fs.Bool("json", false, "list: print JSON")
	allowAI := fs.Bool("allow-ai", false, "enable: also agree to the model calls, billed to you, that the plugin's permissions.ai asks for")
	project := fs.Bool("project", false, "install: into <cwd>/.tandem/plugins instead of $TANDEM_HOME/plugins")
	overwrite := fs.Bool("overwrite", false, "install: replace an installed plugin of the same name")
	out := fs.String("o", "", "pack: the archive to write (default <name>-<version>.tar.gz)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	home, err := config.Home(m.Getenv)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(*cwd)
	if err != nil {
		return err
	}
	rt := m.pluginRuntime(home, m.logger(), nil, "")
	arg := func() (string, error) {
		if len(pos) != 1 {
			fs.Usage()
			return "", errUsage
		}
		return pos[0], nil
	}
	switch verb {
	case "list":
		return m.pluginList(rt, root, *asJSON)
	case "enable", "disable", "remove":
		name, err := arg()
		if err != nil {
			return err
		}
		return m.pluginChoice(rt, root, verb, name, *allowAI)
	case "settings":
		if len(pos) < 1 || len(pos) > 2 {
			fs.Usage()
			return errUsage
		}
		return m.pluginSettings(rt, root, pos)
	case "install":
		src, err := arg()
		if err != nil {
			return err
		}
		dir := filepath.Join(home, "plugins")
		if *project {
			dir = filepath.Join(root, ".tandem", "plugins")
		}
		p, err := plugin.Install(ctx, src, plugin.InstallOptions{Dir: dir, Overwrite: *overwrite})
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "installed %s %s in %s; it runs once you enable it: tandem plugin enable %s\n",
			p.Manifest.Name, p.Manifest.Version, p.Dir, p.Manifest.Name)
		return nil
	case "pack":
		src, err := arg()
		if err != nil {
			return err
		}
		return m.pluginPack(src, *out)
	}
	fmt.Fprintf(m.Stderr, "tandem plugin: unknown command %q\nusage: tandem plugin %s\n", verb, pluginUsage)
	return errUsage
}

func (m *Main) pluginList(rt *plugin.Runtime, root string, asJSON bool) error {
	cat, err := rt.Load(root)
	if err != nil {
		return err
	}
	type row struct {
		Name        string `json:"name"`
		Version     string `json:"version"`
		Scope       string `json:"scope"`
		State       string `json:"state"`
		Dir         string `json:"dir"`
		Description string `json:"description"`
		Permissions any    `json:"permissions"`
		Error       string `json:"error,omitempty"` // why a refused plugin is refused
	}
	rows := []row{} // [] in JSON when there is none
	for _, s := range cat.Statuses {
		rows = append(rows, row{Name: s.Manifest.Name, Version: s.Manifest.Version, Scope: string(s.Scope), State: pluginState(s),
			Dir: s.Dir, Description: s.Manifest.Description, Permissions: s.Manifest.Permissions})
	}
	// A refused plugin is listed with the reason, not left out: it is
	// installed, and its author needs to know what to fix.
	for _, p := range cat.Problems {
		if p.Name == "" { // a plugins folder that could not be read at all
			fmt.Fprintf(m.Stderr, "skipped %s\n", p.Error())
			continue
		}
		state := "refused: " + p.Err.Error()
		if asJSON {
			state = "refused"
		}
		rows = append(rows, row{Name: p.Name, Version: "-", Scope: string(p.Scope), State: state, Dir: p.Dir, Error: p.Err.Error()})
	}
	if asJSON {
		return printJSON(m.Stdout, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(m.Stderr, "no plugins installed")
		return nil
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tSCOPE\tSTATE\tFOLDER")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, r.Version, r.Scope, r.State, r.Dir)
	}
	return tw.Flush()
}

// pluginState says in a few words what becomes of a plugin.
func pluginState(s *plugin.Status) string {
	switch {
	case s.Shadowed:
		return "not used (another folder has this name)"
	case s.Active && s.Manifest.Permissions.AI && (s.Choice == nil || !s.Choice.AIConsent):
		return "enabled (model calls not agreed to)"
	case s.Active:
		return "enabled"
	case s.Enabled:
		return "blocked: " + s.Blocked
	}
	return "disabled"
}

func (m *Main) pluginChoice(rt *plugin.Runtime, root, verb, name string, allowAI bool) error {
	cat, err := rt.Load(root)
	if err != nil {
		return err
	}
	switch verb {
	case "disable":
		if err := cat.Disable(name); err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "disabled %s; running sessions stop it\n", name)
		return nil
	case "remove":
		s, err := cat.Find(name)
		if err != nil {
			return err
		}
		if err := plugin.Remove(s.Plugin); err != nil {
			return err
		}
		if err := cat.Forget(name); err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "removed %s (%s)\n", name, s.Dir)
		return nil
	}
	s, err := cat.Enable(name, allowAI)
	if refused, ok := errors.AsType[*plugin.RefusedError](err); ok {
		return fmt.Errorf("%s cannot be enabled: its manifest in %s is refused: %w", name, refused.Problem.Dir, refused.Problem.Err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "enabled %s %s (%s)\n", name, s.Manifest.Version, s.Dir)
	if n := len(s.Manifest.Contributes.UI); n > 0 {
		fmt.Fprintf(m.Stdout, "its %d ui contribution(s) are not shown: no tandem editor has plugin UI regions\n", n)
	}
	if s.Manifest.Permissions.AI && !allowAI {
		fmt.Fprintf(m.Stdout, "%s asks to make model calls billed to you; it may not until you agree: tandem plugin enable --allow-ai %s\n", name, name)
	}
	if cat, err = rt.Load(root); err == nil {
		if s, err := cat.Find(name); err == nil && s.Blocked != "" {
			fmt.Fprintf(m.Stdout, "it does not run yet: it %s\n", s.Blocked)
		}
	}
	return nil
}

func (m *Main) pluginPack(src, out string) (err error) {
	dir := "."
	if out != "" {
		dir = filepath.Dir(out)
	}
	tmp, err := os.CreateTemp(dir, ".pack-*.tar.gz")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	man, err := plugin.Pack(src, io.MultiWriter(tmp, h))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if out == "" {
		out = man.Name + "-" + man.Version + ".tar.gz"
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	fmt.Fprintf(m.Stdout, "wrote %s\nsha256 %s\nto pin these bytes, publish it as %s.sha256-%s.tar.gz\n",
		out, sum, strings.TrimSuffix(filepath.Base(out), ".tar.gz"), sum)
	return nil
}

// pluginSettings prints a plugin's settings (with its schema's defaults),
// or validates and records new ones.
func (m *Main) pluginSettings(rt *plugin.Runtime, root string, pos []string) error {
	cat, err := rt.Load(root)
	if err != nil {
		return err
	}
	var full json.RawMessage
	if len(pos) == 2 {
		full, err = cat.SetSettings(pos[0], json.RawMessage(pos[1]))
	} else {
		var s *plugin.Status
		if s, err = cat.Find(pos[0]); err == nil {
			var stored json.RawMessage
			if s.Choice != nil && s.Choice.Dir == s.Dir {
				stored = s.Choice.Settings
			}
			full, err = s.Manifest.Settings(stored)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout, string(full))
	return nil
}
