package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// Command ids workspace/executeCommand accepts (offered by codeAction).
// They live under tandem.lsp. because an LSP client library registers
// every advertised id as an editor command: VS Code's language client
// would otherwise claim ids the tandem extension registers itself, and
// its activation would fail.
const (
	cmdAsk = "tandem.lsp.ask"
	cmdFix = "tandem.lsp.fix"
)

type initializeParams struct {
	ProcessID        *int32          `json:"processId"`
	RootURI          string          `json:"rootUri"`
	RootPath         string          `json:"rootPath"`
	Capabilities     json.RawMessage `json:"capabilities"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
	// InitializationOptions is the client's tandem settings (Helix's
	// `config`, eglot's :initializationOptions): {"mode": "auto-edit"}
	// makes that the mode of sessions the client does not name one for,
	// for clients that cannot send tandem/setMode.
	InitializationOptions struct {
		Mode string `json:"mode"`
	} `json:"initializationOptions"`
}

// serverCapabilities adds LSP 3.17's positionEncoding and 3.18's
// inlineCompletionProvider, which protocol v0.12.0 does not have.
type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding string `json:"positionEncoding"`
	// InlineCompletionProvider is advertised only when completions are
	// configured, so an editor without them sends no request per keystroke.
	InlineCompletionProvider bool `json:"inlineCompletionProvider,omitempty"`
	// Experimental shadows the embedded field, whose type is any.
	Experimental experimental `json:"experimental"`
}

// experimental is what tandem offers beyond LSP: prompts sent while a
// turn runs are queued and steer it (agent/queue.go), as ACP's
// _meta.tandem.promptQueueing says, so a client can tell tandem from an
// older one that refused them.
type experimental struct {
	Tandem tandemCapabilities `json:"tandem"`
}

type tandemCapabilities struct {
	PromptQueueing bool `json:"promptQueueing"`
}

type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

func (s *Server) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	var caps clientCaps
	if len(p.Capabilities) > 0 {
		if err := json.Unmarshal(p.Capabilities, &caps); err != nil {
			return nil, invalidParams("invalid client capabilities: %v", err)
		}
	}
	var folders []string
	for _, f := range p.WorkspaceFolders {
		if path, err := uriToPath(f.URI); err == nil {
			folders = append(folders, path)
		}
	}
	if len(folders) == 0 {
		if path, err := uriToPath(p.RootURI); err == nil {
			folders = append(folders, path)
		} else if p.RootPath != "" {
			folders = append(folders, p.RootPath)
		}
	}
	enc, encName := caps.encoding()
	if m := p.InitializationOptions.Mode; m != "" {
		root := ""
		if len(folders) > 0 {
			root = folders[0]
		}
		// The workspace's and plugins' modes need the agent: only a client
		// naming a mode waits for it here.
		a, err := s.agentFor(ctx)
		if err != nil {
			// The error is the client's answer: a connection whose agent
			// cannot be built may end after it.
			s.initializeAnswered()
			return nil, err
		}
		if _, err := a.ParseModeAt(root, m); err != nil {
			return nil, invalidParams("initializationOptions.mode: %v", err)
		}
	}

	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.state != stateNew {
		return nil, rpcError(jsonrpc.CodeInvalidRequest, "initialize was already received")
	}
	s.state, s.caps, s.enc, s.encName, s.folders = stateRunning, caps, enc, encName, folders
	s.defaultMode = p.InitializationOptions.Mode
	s.log.Info("initialized", "encoding", encName, "folders", folders)
	// The agent's own background work waits until the editor has its
	// answer; so does the end of a connection whose agent cannot be built.
	jsonrpc.AfterResponse(ctx, func() {
		s.initializeAnswered()
		s.building.WhenBuilt((*agent.Agent).StartBackground)
	})

	return initializeResult{
		Capabilities: serverCapabilities{
			ServerCapabilities: protocol.ServerCapabilities{
				TextDocumentSync: protocol.TextDocumentSyncOptions{
					OpenClose: true,
					Change:    protocol.TextDocumentSyncKindIncremental,
					Save:      &protocol.SaveOptions{},
				},
				DocumentSymbolProvider:  true,
				WorkspaceSymbolProvider: true,
				CodeActionProvider: protocol.CodeActionOptions{
					CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Refactor},
				},
				ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: []string{cmdAsk, cmdFix}},
				Workspace: &protocol.ServerCapabilitiesWorkspace{
					WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{
						Supported: true, ChangeNotifications: true,
					},
				},
			},
			PositionEncoding:         encName,
			Experimental:             experimental{Tandem: tandemCapabilities{PromptQueueing: true}},
			InlineCompletionProvider: s.complete != nil,
		},
		ServerInfo: &protocol.ServerInfo{Name: "tandem", Version: s.version},
	}, nil
}

// initializeAnswered marks the client as having its initialize answer
// (see Server.answered).
func (s *Server) initializeAnswered() { s.answeredOnce.Do(func() { close(s.answered) }) }

func (s *Server) shutdown(ctx context.Context, _ json.RawMessage) (any, error) {
	s.stateMu.Lock()
	s.state = stateShutdown
	s.stateMu.Unlock()
	s.cancelPrompts()
	return nil, nil
}

// exit ends the connection. It runs on the read loop, which reads no
// further frame once the connection's context has ended.
func (s *Server) exit(context.Context, json.RawMessage) error {
	s.endConn()
	return nil
}
