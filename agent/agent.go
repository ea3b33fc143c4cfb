package agent

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/internal/redact"
)

// Errors a front door maps to protocol errors.
var (
	ErrClosed        = errors.New("session is closed")
	ErrNoSession     = errors.New("no such session")
	ErrInvalidCwd    = errors.New("cwd must be an absolute path to an existing directory")
	ErrNotConfigured = llm.ErrNotConfigured
)

// StopReason says why a prompt turn ended (ACP's names); the turn's
// pipeline names them (turn.Stop).
type StopReason string

const (
	StopEndTurn         = StopReason(turn.EndTurn)
	StopMaxTokens       = StopReason(turn.MaxTokens)
	StopMaxTurnRequests = StopReason(turn.MaxTurnRequests)
	StopRefusal         = StopReason(turn.Refusal)
	StopCancelled       = StopReason(turn.Cancelled)
)

// Config is what every session of one process shares.
type Config struct {
	// Provider answers prompts. Nil: tandem still serves everything else and
	// a prompt fails with ErrNotConfigured.
	Provider llm.Provider
	// Model is the default model id; Models the ids offered to editors.
	Model  string
	Models []string
	// Effort is the default thought level of reasoning models ("": the
	// provider's own configuration).
	Effort llm.Effort
	// DiscoverModels, when set, asks the provider which models it serves;
	// the agent calls it once, in the background (Agent.StartBackground),
	// and offers the answer beside Models.
	DiscoverModels func(context.Context) ([]string, error)
	// MaxTokens per model response (0: provider default).
	MaxTokens int
	// MCPStartupWait bounds how long a turn's first request waits for MCP
	// servers still starting (config.json "mcpStartupSeconds"; 0:
	// mcp.DefaultStartupWait, negative: no wait).
	MCPStartupWait time.Duration
	// MaxTurnRequests caps model requests per prompt (0: 50).
	MaxTurnRequests int
	// Home is $TANDEM_HOME (user-global instructions, index caches, logs).
	Home string
	// UserHome is the user's home directory, where ~/.claude and ~/.agents
	// hold commands, skills and agents kept for other agents. Empty: not read.
	UserHome string
	// CustomSources adds folders of commands and skills to a session's own
	// (a plugin's, namespaced "<plugin>:"), after them in precedence. It is
	// asked at session start and at every prompt, so what it returns may
	// change between prompts. Nil: none.
	CustomSources func(root string) []custom.Source
	// Contributions adds namespaced modes, agents and rules (the enabled
	// plugins') to a session's definitions. It is asked when a session
	// opens and again by Session.RefreshDefinitions. Nil: none.
	Contributions func(root string) []custom.Contribution
	// Store persists sessions. Nil: sessions live in memory only.
	Store *store.Store
	// Indexes shares code indexes between sessions with the same root. May be nil.
	Indexes *codeindex.Pool
	// RepoMapTokens is the budget of the repository map a session's first
	// request carries (needs Indexes); 0 sends none.
	RepoMapTokens int
	// Instructions configures workspace instructions; nil uses the
	// defaults with Home as $TANDEM_HOME.
	Instructions *instructions.Config
	// ExtraTools are offered to every session besides the built-ins.
	ExtraTools []tools.Tool
	// Log receives diagnostics (never secrets). Nil: discarded.
	Log *slog.Logger
	// Windows knows each model's context window. Nil: the built-in table,
	// then models.DefaultContext.
	Windows *models.Windows
	// CompactAt is the share of a model's context window at which a
	// session compacts its history before the next request (config.json
	// "compactAt"); 0 means DefaultCompactAt.
	CompactAt float64
	// TitleModel is the model that writes session titles after the first
	// exchange (config.json "titleModel"); "" uses the session's model,
	// TitlesOff (the configured "off") asks for none.
	TitleModel string
	// Subagents configures the task tool's child sessions.
	Subagents SubagentConfig
	// Pipeline holds contributors to the turn's seams, shared by every
	// session; empty by default. See Pipeline.
	Pipeline Pipeline
	// Redact hides secrets in everything a session sends out: updates to
	// the editor, the session log, tool results the model reads, errors
	// and the log. Nil: only credential-shaped text in errors and logs.
	Redact *redact.Redactor
	// MaxFrameBytes is the largest message the front doors write (config.json
	// maxFrameBytes; 0: each front door's default). The agent only carries
	// it to them (Agent.MaxFrameBytes) and fits its result cap inside it.
	MaxFrameBytes int
	// MaxResultBytes caps one tool result the model reads and each text of
	// an update. 0: ResultCap(MaxFrameBytes); never above MaxResultBytes.
	MaxResultBytes int
}

// Agent creates and tracks sessions. It is safe for concurrent use.
type Agent struct {
	cfg Config
	log *slog.Logger
	est *models.Estimator // token estimates, calibrated per model by every session

	// sessionsMu guards sessions and closed: the set of open sessions is
	// the agent's own state, not a session's.
	sessionsMu sync.Mutex
	sessions   map[*Session]struct{}
	closed     bool
	// opening counts sessions between the start of their goroutines and
	// track (see beginOpen); Close waits for them.
	opening sync.WaitGroup

	modelsMu   sync.Mutex
	discovered []string // model ids the provider listed (AddModels)

	// homeMu guards homeReal: Home with its symlinks resolved, found the
	// first time Home exists (every edit asks whether it lies in Home).
	homeMu   sync.Mutex
	homeReal string

	// startBackground starts the agent's own goroutine (model discovery)
	// once, at the first StartBackground or Models call, or marks it as
	// never to start (Close). stopBackground ends it; backgroundDone closes
	// when it has returned or will never run.
	startBackground sync.Once
	stopBackground  context.CancelFunc
	backgroundDone  chan struct{}
}

// New returns an Agent serving cfg.
func New(cfg Config) *Agent {
	if cfg.MaxTurnRequests <= 0 {
		cfg.MaxTurnRequests = 50
	}
	if cfg.Windows == nil {
		// Refusals still teach this process the server's limits.
		cfg.Windows = &models.Windows{}
	}
	if cfg.MaxResultBytes <= 0 || cfg.MaxResultBytes > MaxResultBytes {
		cfg.MaxResultBytes = ResultCap(cfg.MaxFrameBytes)
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = slog.New(cfg.Redact.Handler(log.Handler()))
	a := &Agent{cfg: cfg, log: log, est: new(models.Estimator), sessions: map[*Session]struct{}{},
		stopBackground: func() {}, backgroundDone: make(chan struct{})}
	return a
}

// StartBackground starts what the agent does on its own, off every
// request's path: asking the provider which models it serves. Front doors
// call it once their first answer is out (an editor waits for initialize,
// and this work would compete with it for the CPU); Models calls it too,
// so nothing that lists the models misses the answer for want of a call.
// It does nothing after the first call or after Close.
func (a *Agent) StartBackground() {
	a.startBackground.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), discoverTimeout)
		a.stopBackground = cancel
		go a.discover(ctx)
	})
}

// SessionOptions configure a new or loaded session.
type SessionOptions struct {
	// ID of a stored session to load or resume; empty for a new session.
	ID string
	// Cwd is the session's working directory (absolute, existing).
	Cwd string
	// AdditionalRoots are further workspace roots (absolute, existing
	// directories), readable and writable like Cwd. On load and resume, nil
	// keeps the stored ones.
	AdditionalRoots []string
	Mode            Mode
	// Model overrides Config.Model for this session.
	Model string
	Host  Host
	// Tools joins the built-ins for this session only.
	Tools []tools.Tool
	// MCPServers are the editor's MCP servers; they join those of
	// $TANDEM_HOME/mcp.json and <root>/.tandem/mcp.json, and win a name clash.
	MCPServers []mcp.Server
}

// Indexes returns the code index pool sessions share (nil when none), so a
// front door can serve workspace symbol search from the same indexes.
func (a *Agent) Indexes() *codeindex.Pool { return a.cfg.Indexes }

// MaxFrameBytes is Config.MaxFrameBytes: the cap front doors put on the
// messages they write (0: their default).
func (a *Agent) MaxFrameBytes() int { return a.cfg.MaxFrameBytes }

// Ready reports whether prompts can reach a model: ErrNotConfigured while no
// provider is configured or the configured one waits for a login.
func (a *Agent) Ready() error {
	p := a.cfg.Provider
	if p == nil {
		return ErrNotConfigured
	}
	if r, ok := p.(llm.Readier); ok {
		return r.Ready()
	}
	return nil
}
