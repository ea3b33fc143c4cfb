package instructions

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
)

// Defaults for Config fields left unset.
const (
	DefaultMaxBytes       = 65536
	DefaultMaxSourceBytes = 1 << 20
	// GlobalFile is the user-global file name inside the tandem home. The
	// candidate lists do not apply to it and it has no overlay.
	GlobalFile = "AGENTS.md"
)

// Default candidate and marker lists. Functions, so no caller can mutate a
// shared slice.
func DefaultCandidates() []string      { return []string{"AGENTS.md", "CLAUDE.md"} }
func DefaultLocalCandidates() []string { return []string{"AGENTS.local.md", "CLAUDE.local.md"} }
func DefaultRootMarkers() []string     { return []string{".git"} }

// Config says where instruction files come from and how much of them a
// message may carry. Build it with DefaultConfig or LoadConfig; the zero
// value loads nothing (MaxBytes 0 disables loading).
type Config struct {
	// Home is $TANDEM_HOME; empty means no user-global file.
	Home string
	// HomeLabel is how paths under Home are shown to the model:
	// "~/.tandem" for the default home, "$TANDEM_HOME" for a configured one.
	HomeLabel string
	// Candidates and LocalCandidates are same-directory file names tried in
	// order; the first regular file wins. Nil means the default list, an
	// empty non-nil list means none. Unsafe names are dropped.
	Candidates      []string
	LocalCandidates []string
	// RootMarkers are names whose presence (file or directory) marks the
	// project root. Nil means [".git"].
	RootMarkers []string
	// MaxBytes bounds each rendered message; ≤ 0 disables loading.
	MaxBytes int
	// MaxSourceBytes bounds each file read; ≤ 0 means the 1 MiB default.
	MaxSourceBytes int64
}

// DefaultConfig is the configuration with every default and the given home.
func DefaultConfig(home string) Config {
	return Config{
		Home:            home,
		HomeLabel:       "~/.tandem",
		Candidates:      DefaultCandidates(),
		LocalCandidates: DefaultLocalCandidates(),
		RootMarkers:     DefaultRootMarkers(),
		MaxBytes:        DefaultMaxBytes,
		MaxSourceBytes:  DefaultMaxSourceBytes,
	}
}

// FileNames lists every instruction file name a session could load under
// this configuration: the configured candidates and overlays, the defaults
// (so a configuration that drops AGENTS.md does not unprotect it) and the
// user-global name. Writes to any of them ask first (tools.Protected).
func (c Config) FileNames() []string {
	n := c.normalized()
	var out []string
	for _, list := range [][]string{DefaultCandidates(), DefaultLocalCandidates(), {GlobalFile}, n.Candidates, n.LocalCandidates} {
		for _, name := range list {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// normalized fills defaults and drops unsafe names, returning a copy.
func (c Config) normalized() Config {
	if c.Candidates == nil {
		c.Candidates = DefaultCandidates()
	}
	if c.LocalCandidates == nil {
		c.LocalCandidates = DefaultLocalCandidates()
	}
	if c.RootMarkers == nil {
		c.RootMarkers = DefaultRootMarkers()
	}
	c.Candidates = sameDirNames(c.Candidates)
	c.LocalCandidates = sameDirNames(c.LocalCandidates)
	c.RootMarkers = sameDirNames(c.RootMarkers)
	if c.MaxSourceBytes <= 0 {
		c.MaxSourceBytes = DefaultMaxSourceBytes
	}
	if c.HomeLabel == "" {
		c.HomeLabel = "$TANDEM_HOME"
	}
	if c.Home != "" {
		c.Home = filepath.Clean(c.Home)
	}
	return c
}

// sameDirNames keeps only plain names of an entry in the same directory:
// anything that could reach another directory, or name none, is dropped.
func sameDirNames(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n == "" || n == "." || n == ".." || strings.ContainsAny(n, "/\\\x00") {
			continue
		}
		out = append(out, n)
	}
	return out
}

// ResolveHome returns $TANDEM_HOME (with a leading ~ expanded) or
// ~/.tandem, and the label the model sees for it. home is empty when no home
// directory can be found; then there is no user-global file.
func ResolveHome(getenv func(string) string) (home, label string) {
	home, _ = config.Home(getenv)
	if getenv("TANDEM_HOME") != "" {
		return home, "$TANDEM_HOME"
	}
	return home, "~/.tandem"
}

// fileConfig is the "instructions" object of $TANDEM_HOME/config.json.
type fileConfig struct {
	Candidates      []string `json:"candidates"`
	LocalCandidates []string `json:"localCandidates"`
	RootMarkers     []string `json:"rootMarkers"`
	MaxBytes        *int64   `json:"maxBytes"`
	MaxSourceBytes  *int64   `json:"maxSourceBytes"`
}

// LoadConfig builds the Config for sessions of one process: the environment
// first (TANDEM_INSTRUCTIONS_MAX_BYTES), then the "instructions" key of
// home/config.json, then defaults. An empty home is resolved from the
// environment (ResolveHome). A missing config file is not an error.
func LoadConfig(home string, getenv func(string) string) (Config, error) {
	label := "~/.tandem"
	if home == "" {
		home, label = ResolveHome(getenv)
	} else if getenv("TANDEM_HOME") != "" {
		label = "$TANDEM_HOME"
	}
	cfg := DefaultConfig(home)
	cfg.HomeLabel = label
	if home != "" {
		if err := applyConfigFile(&cfg, filepath.Join(home, "config.json")); err != nil {
			return Config{}, err
		}
	}
	if v := strings.TrimSpace(getenv("TANDEM_INSTRUCTIONS_MAX_BYTES")); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Config{}, fmt.Errorf("TANDEM_INSTRUCTIONS_MAX_BYTES=%q is not a whole number of bytes (use 0 to turn workspace instructions off): %w", v, err)
		}
		cfg.MaxBytes = clampInt(n)
	}
	return cfg.normalized(), nil
}

func applyConfigFile(cfg *Config, path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	var doc struct {
		Instructions *fileConfig `json:"instructions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: the \"instructions\" settings are not valid JSON of the expected shape: %w", path, err)
	}
	fc := doc.Instructions
	if fc == nil {
		return nil
	}
	if fc.Candidates != nil {
		cfg.Candidates = fc.Candidates
	}
	if fc.LocalCandidates != nil {
		cfg.LocalCandidates = fc.LocalCandidates
	}
	if fc.RootMarkers != nil {
		cfg.RootMarkers = fc.RootMarkers
	}
	if fc.MaxBytes != nil {
		cfg.MaxBytes = clampInt(*fc.MaxBytes)
	}
	if fc.MaxSourceBytes != nil {
		cfg.MaxSourceBytes = *fc.MaxSourceBytes
	}
	return nil
}

// clampInt keeps huge byte counts from wrapping on 32-bit platforms.
func clampInt(n int64) int {
	const maxInt = int64(^uint(0) >> 1)
	if n > maxInt {
		return int(maxInt)
	}
	if n < -maxInt {
		return -int(maxInt)
	}
	return int(n)
}
