package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// finding is one line of the doctor's report.
type finding struct {
	level  level
	name   string
	detail string
	fix    string // what to do; empty when nothing needs doing
}

type level int

const (
	levelOK level = iota
	levelInfo
	levelWarn
	levelFail
)

// findingNameWidth is the column a finding's name fills.
const findingNameWidth = 16

// doctor holds what the checks share.
type doctor struct {
	m      *Main
	cfg    config.Config
	cfgErr error
	dir    string // the directory checked for instructions and MCP servers
	online bool
}

func runDoctor(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("doctor", "[--online] [--cwd DIR]")
	online := fs.Bool("online", false, "also send the provider one small request (checks the key and the model)")
	cwd := fs.String("cwd", ".", "the `directory` whose instruction files and MCP servers are checked")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	dir, err := filepath.Abs(*cwd)
	if err != nil {
		return err
	}
	d := &doctor{m: m, dir: dir, online: *online}
	d.cfg, d.cfgErr = config.Load(m.Getenv)
	checks := []func(context.Context) []finding{
		d.checkHome, d.checkConfig, d.checkProvider, d.checkModel, d.checkOnline, d.checkCompletion,
		d.checkInstructions, d.checkMCP, d.checkSandbox, d.checkEditors, d.checkLogs,
	}
	st := newStyle(isTerminal(m.Stdout), m.Getenv)
	failed := 0
	for _, c := range checks {
		for _, f := range c(ctx) {
			m.printFinding(st, f)
			if f.level == levelFail {
				failed++
			}
		}
	}
	if failed > 0 {
		verb := "needs"
		if failed > 1 {
			verb = "need"
		}
		fmt.Fprintf(m.Stdout, "\n%s %s fixing.\n", plural(failed, "check"), verb)
		return exitCode(exitError)
	}
	return nil
}

func (m *Main) printFinding(st style, f finding) {
	mark := map[level]string{levelOK: st.green("✓"), levelInfo: st.dim("·"), levelWarn: st.wrap("33", "!"), levelFail: st.red("✗")}[f.level]
	line := fmt.Sprintf("%s %-*s %s", mark, findingNameWidth, f.name, f.detail)
	switch {
	case f.fix == "":
	case f.level == levelInfo:
		line += st.dim(" — " + f.fix)
	default:
		line += st.dim(" — fix: " + f.fix)
	}
	fmt.Fprintln(m.Stdout, line)
}

func (d *doctor) checkHome(context.Context) []finding {
	home, err := config.Home(d.m.Getenv)
	if err != nil {
		return []finding{{levelFail, "home", err.Error(), "set TANDEM_HOME to a writable directory"}}
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return []finding{{levelFail, "home", fmt.Sprintf("%s cannot be created: %v", home, err), "set TANDEM_HOME to a writable directory"}}
	}
	f, err := os.CreateTemp(home, ".doctor-*")
	if err != nil {
		return []finding{{levelFail, "home", fmt.Sprintf("%s is not writable: %v", home, err), "fix its permissions or set TANDEM_HOME to a writable directory"}}
	}
	f.Close()
	os.Remove(f.Name())
	return []finding{{levelOK, "home", home + " (sessions, index caches, user instructions)", ""}}
}

func (d *doctor) checkConfig(context.Context) []finding {
	home, _ := config.Home(d.m.Getenv)
	path := filepath.Join(home, "config.json")
	if d.cfgErr != nil {
		return []finding{{levelFail, "config", d.cfgErr.Error(), "correct " + path}}
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []finding{{levelOK, "config", "no " + path + " (environment and defaults only)", ""}}
	}
	unknown := unknownConfigKeys(b)
	if len(unknown) > 0 {
		return []finding{{levelWarn, "config", path + ": " + strings.Join(unknown, "; "), "rename or remove them: unknown keys are ignored"}}
	}
	return []finding{{levelOK, "config", path + " parsed", ""}}
}

func (d *doctor) checkProvider(context.Context) []finding {
	c := d.cfg
	switch {
	case d.cfgErr != nil && c.Provider == "":
		return []finding{{levelFail, "provider", "unknown: the configuration did not load", "fix the config error above"}}
	case c.Provider == "":
		return []finding{{levelFail, "provider", "none configured",
			"tandem login, or export " + config.AnthropicKeyEnv + "=… (Anthropic) or " + config.OpenAIKeyEnv + "=… (OpenAI), or OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama"}}
	case c.Provider == "anthropic" && c.AnthropicKey == "":
		return []finding{{levelFail, "provider", "anthropic without a key", "tandem login, or export " + config.AnthropicKeyEnv + "=…"}}
	case c.Provider == "openai" && c.OpenAIKey == "" && c.OpenAIBaseURL == "":
		return []finding{{levelFail, "provider", "openai without a key", "tandem login --provider openai, or export " + config.OpenAIKeyEnv + "=…"}}
	}
	name := c.Provider
	switch {
	case c.Provider == "openai" && c.OpenAIAPI == config.OpenAIResponses:
		name += ", Responses API"
	case c.Provider == "openai":
		name += ", Chat Completions"
	}
	return []finding{{levelOK, "provider", name + " (" + d.keySource() + ")", ""}}
}

// keySource says where the provider's key (or base URL) comes from,
// without showing it.
func (d *doctor) keySource() string {
	env, url := config.AnthropicKeyEnv, d.cfg.AnthropicBaseURL
	if d.cfg.Provider == "openai" {
		env, url = config.OpenAIKeyEnv, d.cfg.OpenAIBaseURL
		if d.cfg.OpenAIKey == "" {
			return "no key, server " + url
		}
	}
	key := d.cfg.AnthropicKey
	if d.cfg.Provider == "openai" {
		key = d.cfg.OpenAIKey
	}
	from := "key from " + env
	if d.m.Getenv(env) == "" {
		from = "key from config.json"
		if creds, err := config.LoadCredentials(d.cfg.Home); err == nil && (creds.AnthropicAPIKey == key || creds.OpenAIAPIKey == key) {
			from = "key from tandem login"
		}
	}
	if url != "" {
		from += ", server " + url
	}
	return from
}

func (d *doctor) checkModel(context.Context) []finding {
	if d.cfg.Model == "" {
		return []finding{{levelInfo, "model", "none (no provider)", ""}}
	}
	w := newWindows(d.cfg, slog.New(slog.DiscardHandler))
	lim, src := w.Lookup(d.cfg.Model)
	detail := fmt.Sprintf("%s, context window %s tokens (%s)", d.cfg.Model, thousands(lim.Context), src)
	if src == "default" {
		return []finding{{levelWarn, "model", detail + ": tandem does not know this model",
			fmt.Sprintf(`set its window: "contextWindows": {%q: N} in config.json, or TANDEM_CONTEXT_WINDOW`, d.cfg.Model)}}
	}
	return []finding{{levelOK, "model", detail, ""}}
}

func (d *doctor) checkInstructions(ctx context.Context) []finding {
	cfg, err := instructions.LoadConfig("", d.m.Getenv)
	if err != nil {
		return []finding{{levelFail, "instructions", err.Error(), "correct the instructions settings"}}
	}
	tr := instructions.NewTracker(cfg, d.dir)
	b, err := tr.Baseline(ctx)
	switch {
	case err != nil:
		return []finding{{levelFail, "instructions", err.Error(), ""}}
	case !tr.Enabled():
		return []finding{{levelInfo, "instructions", "disabled (maxBytes ≤ 0)", ""}}
	case b == nil:
		return []finding{{levelInfo, "instructions", "none for " + d.dir + " (project root " + tr.Root() + ")",
			"optional: an AGENTS.md at the project root gives the agent standing instructions"}}
	}
	var paths []string
	for _, c := range b.Meta.Changes {
		paths = append(paths, c.Path)
	}
	return []finding{{levelOK, "instructions", fmt.Sprintf("%s, %s bytes", strings.Join(paths, ", "), thousands(len(b.Text))), ""}}
}

func (d *doctor) checkSandbox(context.Context) []finding {
	if d.cfg.Sandbox.Mode == sandbox.ModeOff {
		return []finding{{levelWarn, "sandbox", "off in config.json: commands run unconfined", `remove "sandbox": {"mode": "off"} to confine them`}}
	}
	if ok, why := sandbox.Available(); !ok {
		fix := "full-auto mode asks before every command instead of running it unasked"
		if runtime.GOOS == "linux" {
			fix += "; a Linux kernel with Landlock (5.13+) confines them"
		}
		return []finding{{levelWarn, "sandbox", "unavailable: " + why, fix}}
	}
	if runtime.GOOS != "linux" {
		return []finding{{levelOK, "sandbox", sandbox.Summary(), ""}}
	}
	return []finding{{levelOK, "sandbox", fmt.Sprintf("Landlock ABI %d", sandbox.LandlockABI()), ""}}
}

func (d *doctor) checkLogs(context.Context) []finding {
	lvl := d.m.Getenv("TANDEM_LOG")
	if lvl == "" {
		lvl = "warn"
	}
	return []finding{{levelInfo, "logs", "stderr at level " + lvl + " (editors keep it in their log of the agent)", "TANDEM_LOG=debug shows requests, tool calls and permission decisions"}}
}
