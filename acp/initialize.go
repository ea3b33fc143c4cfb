package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// initializeParams is what Initialize reads of the request when it comes
// (the protocol version only to refuse one that is not a number; tandem
// answers 1 whatever it is): the client's capabilities stay raw until a
// session needs them
// (clientCaps), because decoding them through the SDK's generated types
// costs about 0.1 ms on first use, a measurable part of an editor's wait
// for the first answer of a process.
type initializeParams struct {
	ProtocolVersion    sdk.ProtocolVersion `json:"protocolVersion"`
	ClientCapabilities json.RawMessage     `json:"clientCapabilities"`
}

// loginCaps is what of the client's capabilities initialize reads: whether
// it shows boolean config options, and what the login methods depend on: the stable terminal login (auth.terminal, ACP 1.21) and the form
// editors and the ACP Registry's check sent before it,
// `_meta["terminal-auth"]: true`. _meta is read leniently, as the schema
// asks of metadata: a value of another shape just means no.
type loginCaps struct {
	Auth struct {
		Terminal bool `json:"terminal"`
	} `json:"auth"`
	Meta json.RawMessage `json:"_meta"`
	// Nes is the client's NES capability: sent (not null), the client
	// gets the agent's (nes.go).
	Nes json.RawMessage `json:"nes"`
	// Session.ConfigOptions.Boolean is an object (usually {}) when the
	// client shows boolean config options; absent or null when not.
	Session struct {
		ConfigOptions struct {
			Boolean json.RawMessage `json:"boolean"`
		} `json:"configOptions"`
		Compaction json.RawMessage `json:"compaction"` // see compaction.go
	} `json:"session"`
}

// switches says whether the client takes boolean config options.
func (c loginCaps) switches() bool { return offered(c.Session.ConfigOptions.Boolean) }

// offered reads a capability the schema offers as an object: absent or
// null means not offered.
func offered(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }

// logins says which terminal logins the client can run.
func (c loginCaps) logins() logins {
	var meta struct {
		TerminalAuth bool `json:"terminal-auth"`
	}
	_ = json.Unmarshal(c.Meta, &meta) // lenient, see loginCaps
	return logins{terminal: c.Auth.Terminal, terminalMeta: meta.TerminalAuth}
}

// Initialize handles initialize. It answers from constants and the client's
// capabilities alone: no disk, no network, no model. The answer is written
// as JSON text (initializeResult) rather than through the SDK's encoders,
// whose first use costs about 0.3 ms; a test holds it equal to what the
// SDK's types encode.
func (s *server) Initialize(ctx context.Context, p initializeParams) (json.RawMessage, error) {
	var caps loginCaps
	if len(p.ClientCapabilities) > 0 {
		if err := json.Unmarshal(p.ClientCapabilities, &caps); err != nil {
			return nil, invalidParams("invalid clientCapabilities: %v", err)
		}
	}
	unstable := optsIntoUnstable(p.ClientCapabilities)
	s.capsMu.Lock()
	s.capsRaw, s.caps, s.capsErr, s.unstable = p.ClientCapabilities, nil, nil, unstable
	s.switches = caps.switches()
	s.compaction = offered(caps.Session.Compaction)
	s.capsMu.Unlock()
	// The agent's own background work waits until the editor has its
	// answer; so does the end of a connection whose agent cannot be built.
	jsonrpc.AfterResponse(ctx, func() {
		s.answeredOnce.Do(func() { close(s.answered) })
		s.building.WhenBuilt((*agent.Agent).StartBackground)
	})
	return initializeResult(s.info.Version, caps.logins(), unstable, len(caps.Nes) > 0 && string(caps.Nes) != "null")
}

// initializeResult is initialize's answer: tandem speaks protocol version 1
// (a client asking for more gets 1 and decides), offers what
// agentCapabilities lists (every root is readable and writable as cwd is,
// see acp/roots.go) and, to a client of the unstable schema, session/fork;
// and the login methods authMethods describes. A client that declared the
// nes capability hears of tandem's next-edit suggestions (nes.go): which
// document events it wants, with incremental changes.
func initializeResult(version string, l logins, unstable, nes bool) (json.RawMessage, error) {
	v, err := json.Marshal(version)
	if err != nil {
		return nil, err
	}
	methods, err := authMethods(l)
	if err != nil {
		return nil, err
	}
	caps := agentCapabilities
	if unstable {
		caps = agentCapabilitiesUnstable
	}
	if nes {
		caps = agentCapabilitiesNes
	}
	b := make([]byte, 0, 1024)
	// agentInfo's _meta tells the editor how commands are confined here
	// (sandbox.Summary): "none: …" on Windows, which has no kernel sandbox.
	box, err := json.Marshal(sandbox.Summary())
	if err != nil {
		return nil, err
	}
	b = append(b, `{"agentCapabilities":`+caps+`,"agentInfo":{"_meta":{"tandem":{"sandbox":`...)
	b = append(b, box...)
	b = append(b, `}},"name":"tandem","title":"Tandem","version":`...)
	b = append(b, v...)
	b = append(b, `},"authMethods":[`...)
	b = append(b, methods...)
	b = append(b, `],"protocolVersion":1}`...)
	return b, nil
}

// agentCapabilities is what every client is offered (logout is stable
// since 1.21, so every client hears of it); _meta says prompts sent while a
// turn runs are queued and steer it (agent/queue.go), under the key
// claude-agent-acp made the convention Zed reads and under our own;
// sessionCapabilities
// lists only what schema.json defines. agentCapabilitiesUnstable adds
// session/fork, which only schema.unstable.json defines (see
// unstableClientCaps); the keys stay in order either way.
const (
	agentCapabilitiesStart = `{"_meta":{"claudeCode":{"promptQueueing":true},"tandem":{"promptQueueing":true}},"auth":{"logout":{}},"loadSession":true,"mcpCapabilities":{"http":true,"sse":true},`
	agentCapabilitiesRest  = `"promptCapabilities":{"embeddedContext":true,"image":true},` +
		`"sessionCapabilities":{"additionalDirectories":{},"close":{},"delete":{},`
	nesCapabilities = `"nes":{"events":{"document":{"didChange":{"syncKind":"incremental"},` +
		`"didClose":{},"didFocus":{},"didOpen":{},"didSave":{}}}},`
	agentCapabilities         = agentCapabilitiesStart + agentCapabilitiesRest + `"list":{},"resume":{}}}`
	agentCapabilitiesUnstable = agentCapabilitiesStart + agentCapabilitiesRest + `"fork":{},"list":{},"resume":{}}}`
	agentCapabilitiesNes      = agentCapabilitiesStart + nesCapabilities + agentCapabilitiesRest + `"fork":{},"list":{},"resume":{}}}`
)
