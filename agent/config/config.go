// Package config reads tandem's settings: the environment first, then
// $TANDEM_HOME/config.json, then defaults. It never logs or stores a secret;
// Config.String redacts keys.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/internal/pathx"
)

// Config is the resolved configuration.
type Config struct {
	Home string // $TANDEM_HOME, default ~/.tandem

	Provider string // "anthropic" | "openai" | "" (none configured)
	Model    string
	Models   []string // offered to editors; Model first

	AnthropicKey     string
	AnthropicBaseURL string
	OpenAIKey        string
	OpenAIBaseURL    string
	// Secrets are every credential the configuration holds, from every
	// source (the environment's keys, config.json's, the stored ones, a
	// password or key in a base URL), the ones not in use included: the
	// redactor must know a key the environment overrides as well. Load
	// fills them in even when it fails later on.
	Secrets []string
	// OpenAIAPI is the wire the openai provider speaks: "responses"
	// (OpenAI's Responses API) or "chat" (Chat Completions, which every
	// OpenAI-compatible server speaks). Resolved when Provider is openai.
	OpenAIAPI string

	MaxTokens       int
	ThoughtLevel    string // default reasoning level ("" leaves it to the provider)
	MaxTurnRequests int

	// ContextWindows are config.json's per-model windows (tokens);
	// ContextWindow is TANDEM_CONTEXT_WINDOW, which applies to the model in
	// use and wins over the file (0: unset).
	ContextWindows map[string]int
	ContextWindow  int
	// CompactAt is the share of the window at which compaction starts
	// (config.json "compactAt", default DefaultCompactAt).
	CompactAt float64
	// RepoMapTokens is config.json's repoMap.tokens, the budget of the
	// repository map; nil when the file does not set it.
	RepoMapTokens *int
	// CommandEnvAllow names secret-looking variables commands may still
	// see (provider keys never).
	CommandEnvAllow []string
	Sandbox         Sandbox
	Subagents       Subagents
	// MCPStartupWait is config.json "mcpStartupSeconds" or
	// TANDEM_MCP_STARTUP_SECONDS: how long a turn's first request waits for
	// MCP servers still starting (0: the default, negative: no wait).
	MCPStartupWait time.Duration
	// MaxFrameBytes caps one message tandem writes to the editor
	// (config.json "maxFrameBytes" or TANDEM_MAX_FRAME_BYTES); 0: unset,
	// each front door keeps its default. See frame.go.
	MaxFrameBytes int
	// Completion configures inline completions (completion.go).
	Completion Completion
}

// Subagents is config.json's "subagents" object: the task tool's children.
type Subagents struct {
	// MaxParallel bounds the subagents one session runs at once (0: the default).
	MaxParallel int `json:"maxParallel"`
}

// Sandbox is config.json's "sandbox" object; see agent/sandbox.
type Sandbox struct {
	Mode          string   `json:"mode"` // workspace-write (default) | read-only | off
	Network       string   `json:"network"`
	WritablePaths []string `json:"writablePaths"`
}

// File is the shape of config.json. Keys mirror the environment names.
type File struct {
	Provider         string   `json:"provider"`
	Model            string   `json:"model"`
	Models           []string `json:"models"`
	AnthropicAPIKey  string   `json:"anthropicApiKey"`
	AnthropicBaseURL string   `json:"anthropicBaseUrl"`
	OpenAIAPIKey     string   `json:"openaiApiKey"`
	OpenAIBaseURL    string   `json:"openaiBaseUrl"`
	OpenAIAPI        string   `json:"openaiApi"`
	MaxTokens        int      `json:"maxTokens"`
	MaxTurnRequests  int      `json:"maxTurnRequests"`
	// ThoughtLevel is the default reasoning level: off, low, medium, high.
	ThoughtLevel string `json:"thoughtLevel"`

	ContextWindows map[string]int `json:"contextWindows"`
	CompactAt      float64        `json:"compactAt"`
	RepoMap        struct {
		Tokens *int `json:"tokens"`
	} `json:"repoMap"`
	CommandEnv struct {
		Allow []string `json:"allow"`
	} `json:"commandEnv"`
	Sandbox   Sandbox   `json:"sandbox"`
	Subagents Subagents `json:"subagents"`
	// MCPStartupSeconds bounds the first request's wait for MCP servers
	// still starting (0: 10 s; negative: no wait).
	MCPStartupSeconds float64 `json:"mcpStartupSeconds"`
	// MaxFrameBytes caps one outbound protocol message (0: the default).
	MaxFrameBytes int `json:"maxFrameBytes"`
	// Completion configures inline completions (completion.go).
	Completion CompletionFile `json:"completion"`
}

// DefaultCompactAt is the share of the context window a request may fill
// before compaction starts.
const DefaultCompactAt = 0.8

// Default models per provider, used when none is configured.
const (
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultOpenAIModel    = "gpt-4.1"
)

// Home returns $TANDEM_HOME, a leading ~ expanded (editors pass env
// values without a shell), or ~/.tandem. The user's home is $HOME, which
// wins over the account's home directory as it does for a shell; on
// Windows it is %USERPROFILE% first (HOME there is set only by some
// shells, such as Git Bash, and not for an editor started from the Start
// menu), so the default is %USERPROFILE%\.tandem. Every part of tandem
// that needs the home asks here, so sessions, caches and instructions
// agree on it.
func Home(getenv func(string) string) (string, error) {
	return home(getenv, pathx.Native().Windows)
}

func home(getenv func(string) string, windows bool) (string, error) {
	vars := []string{"HOME"}
	if windows {
		vars = []string{"USERPROFILE", "HOME"}
	}
	var userHome string
	for _, v := range vars {
		if userHome = getenv(v); userHome != "" {
			break
		}
	}
	if userHome == "" {
		userHome, _ = os.UserHomeDir()
	}
	if v := getenv("TANDEM_HOME"); v != "" {
		tilde := v == "~" || strings.HasPrefix(v, "~/") || (windows && strings.HasPrefix(v, `~\`))
		if userHome != "" && tilde {
			v = filepath.Join(userHome, v[1:])
		}
		return filepath.Clean(v), nil
	}
	if userHome == "" {
		return "", errors.New("config: TANDEM_HOME is unset and the home directory is unknown: set TANDEM_HOME")
	}
	return filepath.Join(userHome, ".tandem"), nil
}

// Load resolves the configuration. getenv is os.Getenv in production.
func Load(getenv func(string) string) (Config, error) {
	var c Config
	home, err := Home(getenv)
	if err != nil {
		return c, err
	}
	c.Home = home
	var f File
	path := filepath.Join(c.Home, "config.json")
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return c, fmt.Errorf("config: %w", err)
	default:
		// Checked on its own so a syntax error reads as one, apart from a
		// field of the wrong type.
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(b, &obj); err != nil {
			return c, fmt.Errorf("config: %s is not valid JSON: %w", path, err)
		}
		if err := json.Unmarshal(b, &f); err != nil {
			return c, fmt.Errorf("config: %s: %w", path, err)
		}
	}
	creds, err := LoadCredentials(c.Home)
	if err != nil {
		return c, err
	}
	pick := func(env, file string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return file
	}
	// A key: the environment, then config.json, then what tandem login stored.
	key := func(env, file, stored string) string {
		if v := pick(env, file); v != "" {
			return v
		}
		return stored
	}
	c.Secrets = secretsOf(
		[]string{getenv(AnthropicKeyEnv), getenv(OpenAIKeyEnv), f.AnthropicAPIKey, f.OpenAIAPIKey, creds.AnthropicAPIKey, creds.OpenAIAPIKey},
		getenv("ANTHROPIC_BASE_URL"), getenv("OPENAI_BASE_URL"), f.AnthropicBaseURL, f.OpenAIBaseURL)
	c.Secrets = append(c.Secrets, completionSecrets(getenv, f)...)
	c.Provider = strings.ToLower(pick("TANDEM_PROVIDER", f.Provider))
	c.Model = pick("TANDEM_MODEL", f.Model)
	c.AnthropicKey = key(AnthropicKeyEnv, f.AnthropicAPIKey, creds.AnthropicAPIKey)
	c.AnthropicBaseURL = pick("ANTHROPIC_BASE_URL", f.AnthropicBaseURL)
	c.OpenAIKey = key(OpenAIKeyEnv, f.OpenAIAPIKey, creds.OpenAIAPIKey)
	c.OpenAIBaseURL = pick("OPENAI_BASE_URL", f.OpenAIBaseURL)
	c.OpenAIAPI = strings.ToLower(pick("TANDEM_OPENAI_API", f.OpenAIAPI))
	c.MaxTokens = f.MaxTokens
	c.ThoughtLevel = pick("TANDEM_THOUGHT_LEVEL", f.ThoughtLevel)
	if _, err := llm.ParseEffort(c.ThoughtLevel); err != nil {
		return c, fmt.Errorf("config: thoughtLevel %q: use off, low, medium or high", c.ThoughtLevel)
	}
	c.MaxTurnRequests = f.MaxTurnRequests
	c.CommandEnvAllow = f.CommandEnv.Allow
	c.Sandbox = f.Sandbox
	if f.Subagents.MaxParallel < 0 {
		return c, fmt.Errorf("config: %s: subagents.maxParallel is %d; use a positive number, or 0 for the default", path, f.Subagents.MaxParallel)
	}
	c.Subagents = f.Subagents
	if v := getenv("TANDEM_MAX_TURN_REQUESTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("config: TANDEM_MAX_TURN_REQUESTS=%q is not a positive number", v)
		}
		c.MaxTurnRequests = n
	}

	c.MCPStartupWait = time.Duration(f.MCPStartupSeconds * float64(time.Second))
	if v := getenv("TANDEM_MCP_STARTUP_SECONDS"); v != "" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return c, fmt.Errorf("config: TANDEM_MCP_STARTUP_SECONDS=%q is not a number", v)
		}
		c.MCPStartupWait = time.Duration(n * float64(time.Second))
	}
	c.RepoMapTokens = f.RepoMap.Tokens
	if c.MaxFrameBytes, err = loadMaxFrame(getenv, f.MaxFrameBytes); err != nil {
		return c, err
	}
	if err := c.loadContext(getenv, f); err != nil {
		return c, err
	}
	if err := c.loadCompletion(getenv, f); err != nil {
		return c, err
	}

	switch c.OpenAIAPI {
	case "", OpenAIResponses, OpenAIChat:
	default:
		return c, fmt.Errorf("config: TANDEM_OPENAI_API=%q: use responses or chat", c.OpenAIAPI)
	}
	switch c.Provider {
	case "anthropic", "openai":
	case "openai-chat":
		if c.OpenAIAPI == OpenAIResponses {
			return c, fmt.Errorf("config: TANDEM_PROVIDER=openai-chat is Chat Completions, but TANDEM_OPENAI_API=responses")
		}
		c.Provider, c.OpenAIAPI = "openai", OpenAIChat
	case "":
		// Chosen by which key is present; an OpenAI-compatible base URL
		// alone (Ollama, llama.cpp) needs no key.
		switch {
		case c.AnthropicKey != "":
			c.Provider = "anthropic"
		case c.OpenAIKey != "" || c.OpenAIBaseURL != "":
			c.Provider = "openai"
		}
	default:
		return c, fmt.Errorf("config: TANDEM_PROVIDER=%q: use anthropic, openai or openai-chat", c.Provider)
	}
	if c.Provider == "openai" && c.OpenAIAPI == "" {
		c.OpenAIAPI = defaultOpenAIAPI(c.OpenAIBaseURL)
	}
	if c.Model == "" {
		switch c.Provider {
		case "anthropic":
			c.Model = DefaultAnthropicModel
		case "openai":
			c.Model = DefaultOpenAIModel
		}
	}
	c.Models = dedupe(append([]string{c.Model}, f.Models...))
	return c, nil
}

func dedupe(in []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// The wires of the openai provider (Config.OpenAIAPI).
const (
	OpenAIResponses = "responses"
	OpenAIChat      = "chat"
)

// defaultOpenAIAPI picks the wire for a base URL: the Responses API on
// OpenAI's own endpoint, where reasoning models keep their reasoning
// between turns only through it; Chat Completions on any other server,
// since that is the API "OpenAI-compatible" servers implement.
func defaultOpenAIAPI(baseURL string) string {
	if baseURL == "" {
		return OpenAIResponses
	}
	if u, err := url.Parse(baseURL); err == nil && strings.EqualFold(u.Hostname(), "api.openai.com") {
		return OpenAIResponses
	}
	return OpenAIChat
}

// String describes the configuration without secrets.
func (c Config) String() string {
	redact := func(k string) string {
		if k == "" {
			return "unset"
		}
		return "set"
	}
	return fmt.Sprintf("home=%s provider=%s model=%s anthropic_key=%s openai_key=%s",
		c.Home, c.Provider, c.Model, redact(c.AnthropicKey), redact(c.OpenAIKey))
}
