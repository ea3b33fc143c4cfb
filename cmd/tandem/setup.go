package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/codeindex"
)

// newAgent builds the agent every subcommand shares from the environment
// and $TANDEM_HOME/config.json. A missing model configuration is not an
// error here: tandem serves what needs no model, and a prompt then fails
// with a message naming the variables to set.
func (m *Main) newAgent() (*agent.Agent, error) { return m.newAgentWith(nil, nil) }

// newAgentWith is newAgent with a last say over the agent's configuration
// (a subcommand's flags, its pipeline contributors) and a place to tell the
// user about retries of model requests (nil: the log). Both may be nil.
func (m *Main) newAgentWith(edit func(*agent.Config), notice func(string)) (*agent.Agent, error) {
	cfg, err := config.Load(m.Getenv)
	if err != nil {
		return nil, err
	}
	return m.newAgentFrom(cfg, edit, notice)
}

// newAgentFrom is newAgentWith for a configuration already loaded.
func (m *Main) newAgentFrom(cfg config.Config, edit func(*agent.Config), notice func(string)) (*agent.Agent, error) {
	if m.sandboxSet != nil {
		<-m.sandboxSet
	}
	log := m.logger()
	m.warnUnknownKeys(cfg.Home)
	obs := &observedTransport{base: modelTransport(), log: log, notice: notice}
	provider, err := newProvider(cfg, obs.transport(), m.redactor())
	if err != nil {
		return nil, err
	}
	// Always behind loginProvider, so a logout can make tandem stop using
	// a stored key without a restart.
	provider = &loginProvider{getenv: m.Getenv, transport: obs.transport(), red: m.redactor(), inner: provider, model: cfg.Model}
	st, err := store.Open(filepath.Join(cfg.Home, "sessions"))
	if err != nil {
		return nil, fmt.Errorf("opening the session store (set TANDEM_HOME to a writable directory): %w", err)
	}
	instr, err := instructions.LoadConfig(cfg.Home, m.Getenv)
	if err != nil {
		return nil, err
	}
	mapTokens, err := repoMapTokens(cfg)
	if err != nil {
		return nil, err
	}
	windows := newWindows(cfg, log)
	ac := agent.Config{
		Provider:        provider,
		Model:           cfg.Model,
		Models:          cfg.Models,
		MaxTokens:       cfg.MaxTokens,
		Effort:          llm.Effort(cfg.ThoughtLevel),
		DiscoverModels:  modelLister(cfg, windows),
		MaxTurnRequests: cfg.MaxTurnRequests,
		MCPStartupWait:  cfg.MCPStartupWait,
		Home:            cfg.Home,
		UserHome:        m.userHome(),
		Store:           st,
		Instructions:    &instr,
		RepoMapTokens:   mapTokens,
		Windows:         windows,
		CompactAt:       cfg.CompactAt,
		TitleModel:      cfg.TitleModel,
		Indexes:         codeindex.NewPool(codeindex.Options{CacheDir: filepath.Join(cfg.Home, "index"), Logger: log, Refs: mapTokens > 0}),
		Log:             log,
		Subagents:       agent.SubagentConfig{MaxParallel: cfg.Subagents.MaxParallel},
		Redact:          m.redactor(),
		MaxFrameBytes:   cfg.MaxFrameBytes,
	}
	debugPipeline(&ac.Pipeline, log)
	if edit != nil {
		edit(&ac)
	}
	a := agent.New(m.withPlugins(ac, log))
	log.Debug("configured", "config", cfg.String())
	return a, nil
}

// buildAgent builds the agent from cfg on a goroutine of its own
// (agent.Build), for a front door that answers initialize meanwhile. The
// caller defers the function it returns, which closes the agent once it
// is built (and not at all if building failed).
func (m *Main) buildAgent(cfg config.Config) (*agent.Building, func()) {
	b := agent.Build(func() (*agent.Agent, error) { return m.newAgentFrom(cfg, nil, nil) })
	return b, func() {
		if a, err := b.Agent(context.Background()); err == nil {
			m.closeAgent(a)
		}
	}
}

// userHome is where ~/.claude and ~/.agents are: $HOME first, as for a
// shell, then the account's home directory.
func (m *Main) userHome() string {
	if h := m.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// closeAgent shuts a's sessions, MCP servers and indexes down when a
// subcommand exits, stdin EOF included; a shutdown that hangs is cut short.
func (m *Main) closeAgent(a *agent.Agent) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		m.logger().Warn("shutting down", "err", err)
	}
}

// logger writes to stderr; stdout belongs to the protocol. TANDEM_LOG
// (debug|info|warn|error) sets the level, warn by default.
func (m *Main) logger() *slog.Logger {
	level := slog.LevelWarn
	switch strings.ToLower(m.Getenv("TANDEM_LOG")) {
	case "debug":
		level = slog.LevelDebug
	case "info":
		level = slog.LevelInfo
	case "error":
		level = slog.LevelError
	}
	h := slog.NewTextHandler(m.logWriter(), &slog.HandlerOptions{Level: level})
	return slog.New(m.redactor().Handler(h))
}

// warnUnknownKeys says once, on stderr and in the log file, which config.json keys tandem does
// not know: a typo in a key would otherwise change nothing and say nothing.
func (m *Main) warnUnknownKeys(home string) {
	path := filepath.Join(home, "config.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	for _, msg := range unknownConfigKeys(b) {
		fmt.Fprintf(m.logWriter(), "tandem: %s: %s; it is ignored (tandem doctor checks the setup)\n", path, msg)
	}
}
