package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// Tool is a tool a Go plugin offers, with the function that runs it.
type Tool struct {
	Def  ToolDef
	Call func(ctx context.Context, h *Host, p CallToolParams) (CallToolResult, error)
}

// Plugin is a plugin written in Go: set the fields it implements and call
// Main (or Serve). Nil hooks are not announced, so tandem never calls them.
type Plugin struct {
	Tools    []Tool
	Commands []Command
	// Initialize runs first in every session; an error stops the plugin
	// for that session.
	Initialize func(ctx context.Context, h *Host, p InitializeParams) error
	// TransformSystemPrompt returns the new system prompt.
	TransformSystemPrompt func(ctx context.Context, h *Host, p TransformParams) (string, error)

	BeforeToolCall func(ctx context.Context, h *Host, p BeforeToolCallParams) (BeforeToolCallResult, error)
	AfterToolCall  func(ctx context.Context, h *Host, p AfterToolCallParams) (AfterToolCallResult, error)
	BeforeAsk      func(ctx context.Context, h *Host, p BeforeAskParams) (BeforeAskResult, error)
	BeforeFileEdit func(ctx context.Context, h *Host, p BeforeFileEditParams) (BeforeFileEditResult, error)
	// Observe receives the observing hooks named in Observes, by name, with
	// their raw params (decode them into the matching *Params type). It
	// runs on the connection's read loop, in the order tandem sent the
	// hooks and before any later message is handled (so a command never
	// overtakes the afterFileEdit before it): keep it quick, and make host
	// calls other than Log from a goroutine of your own.
	Observes []string
	Observe  func(ctx context.Context, h *Host, hook string, params json.RawMessage)
	// Shutdown, when set, runs when tandem ends the plugin's session,
	// before the plugin answers shutdown: finish what the plugin left
	// running (ctx ends with tandem's patience).
	Shutdown func(ctx context.Context, h *Host)
}

// Host is the plugin's side of the connection: calls to the host.
type Host struct {
	conn Caller
	// Init is what initialize said; zero until it has run.
	Init InitializeParams
}

// Log writes a line to the plugin's log file.
func (h *Host) Log(ctx context.Context, level, msg string) error {
	return h.conn.Notify(ctx, HostLog, LogParams{Level: level, Message: msg})
}

// ReadFile reads a file the plugin's permissions cover.
func (h *Host) ReadFile(ctx context.Context, path string) (string, error) {
	var r ReadFileResult
	err := h.conn.Call(ctx, HostReadFile, PathParams{Path: path}, &r)
	return r.Content, err
}

// WriteFile writes a file the plugin's permissions cover.
func (h *Host) WriteFile(ctx context.Context, path, content string) error {
	return h.conn.Call(ctx, HostWriteFile, WriteFileParams{Path: path, Content: content}, nil)
}

// ListFiles lists a folder the plugin's permissions cover.
func (h *Host) ListFiles(ctx context.Context, path string) ([]DirEntry, error) {
	var r ListFilesResult
	err := h.conn.Call(ctx, HostListFiles, PathParams{Path: path}, &r)
	return r.Entries, err
}

// Model asks the user's model for an answer; it needs permissions.ai and
// the user's consent to model calls billed to them.
func (h *Host) Model(ctx context.Context, p ModelParams) (ModelResult, error) {
	var r ModelResult
	err := h.conn.Call(ctx, HostModel, p, &r)
	return r, err
}

// Main serves p on stdin and stdout until tandem closes stdin or sends
// shutdown, and exits the process. Diagnostics go to stderr.
func (p *Plugin) Main() {
	if err := p.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "plugin:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve answers the host on r and w until r ends, shutdown arrives or ctx
// ends.
func (p *Plugin) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := &Host{}
	observed := map[string]bool{}
	for _, name := range p.Observes {
		observed[HookPrefix+name] = true
	}
	conn := jsonrpc.NewConn(r, w, jsonrpc.Options{Framing: jsonrpc.NewlineDelimited, Handler: p.methods(h, cancel).Handle,
		Inline: func(method string) bool { return observed[method] }})
	h.conn = conn
	err := conn.Serve(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// methods is the plugin's method table on a JSON-RPC connection.
func (p *Plugin) methods(h *Host, stop context.CancelFunc) jsonrpc.Methods {
	m := jsonrpc.Methods{}
	for name, r := range p.routes(h) {
		m[name] = r.rpc
	}
	m[MethodShutdown] = func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		p.shutdown(ctx, h)
		// The response leaves first; then the loop stops.
		jsonrpc.AfterResponse(ctx, stop)
		return struct{}{}, nil
	}
	return m
}

// routes are the plugin's methods, each as a JSON-RPC handler and as a
// direct call (direct.go): one table, so the two ways to serve a plugin
// cannot answer differently.
func (p *Plugin) routes(h *Host) map[string]route {
	m := map[string]route{
		MethodInitialize: typed(func(ctx context.Context, in InitializeParams) (InitializeResult, error) {
			h.Init = in
			if p.Initialize != nil {
				if err := p.Initialize(ctx, h, in); err != nil {
					return InitializeResult{}, err
				}
			}
			return p.offer(), nil
		}),
		MethodToolsCall: typed(func(ctx context.Context, in CallToolParams) (CallToolResult, error) {
			for _, t := range p.Tools {
				if t.Def.Name == in.Name {
					return t.Call(ctx, h, in)
				}
			}
			return CallToolResult{}, jsonrpc.InvalidParams("no tool %q", in.Name)
		}),
		MethodCommandRun: typed(func(ctx context.Context, in RunCommandParams) (RunCommandResult, error) {
			for _, c := range p.Commands {
				if c.Def.Name == in.Name {
					text, err := c.Run(ctx, h, in)
					return RunCommandResult{Text: text}, err
				}
			}
			return RunCommandResult{}, jsonrpc.InvalidParams("no command %q", in.Name)
		}),
	}
	if p.TransformSystemPrompt != nil {
		m[MethodTransform] = typed(func(ctx context.Context, in TransformParams) (TransformResult, error) {
			s, err := p.TransformSystemPrompt(ctx, h, in)
			return TransformResult{Prompt: s}, err
		})
	}
	addHook(m, HookBeforeToolCall, h, p.BeforeToolCall)
	addHook(m, HookAfterToolCall, h, p.AfterToolCall)
	addHook(m, HookBeforeAsk, h, p.BeforeAsk)
	addHook(m, HookBeforeFileEdit, h, p.BeforeFileEdit)
	if p.Observe != nil {
		for _, name := range p.Observes {
			m[HookPrefix+name] = route{
				rpc: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
					p.Observe(ctx, h, name, req.Params)
					return nil, nil
				},
				observe: func(ctx context.Context, params json.RawMessage) { p.Observe(ctx, h, name, params) },
			}
		}
	}
	return m
}

func addHook[P, R any](m map[string]route, name string, h *Host, fn func(context.Context, *Host, P) (R, error)) {
	if fn == nil {
		return
	}
	m[HookPrefix+name] = typed(func(ctx context.Context, in P) (R, error) { return fn(ctx, h, in) })
}

func (p *Plugin) shutdown(ctx context.Context, h *Host) {
	if p.Shutdown != nil {
		p.Shutdown(ctx, h)
	}
}

// offer is the initialize result: the tools and the hooks that are set.
func (p *Plugin) offer() InitializeResult {
	r := InitializeResult{ProtocolVersion: ProtocolVersion, SystemPrompt: p.TransformSystemPrompt != nil}
	for _, t := range p.Tools {
		r.Tools = append(r.Tools, t.Def)
	}
	for _, c := range p.Commands {
		r.Commands = append(r.Commands, c.Def)
	}
	for name, set := range map[string]bool{
		HookBeforeToolCall: p.BeforeToolCall != nil, HookAfterToolCall: p.AfterToolCall != nil,
		HookBeforeAsk: p.BeforeAsk != nil, HookBeforeFileEdit: p.BeforeFileEdit != nil,
	} {
		if set {
			r.Hooks = append(r.Hooks, name)
		}
	}
	if p.Observe != nil {
		r.Hooks = append(r.Hooks, p.Observes...)
	}
	return r
}
