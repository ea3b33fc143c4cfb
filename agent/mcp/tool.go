package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/tools"
)

// maxDescription keeps one server's prose from crowding the prompt.
const maxDescription = 8000

// mcpTool is one tool of one server, as the model sees it. Unlike the
// built-in tools it has no Go arguments type: its schema is the one the
// server sent, passed to the model as raw JSON, and the server checks the
// arguments itself (its complaint comes back as an error result).
type mcpTool struct {
	srv    *server
	remote string // the server's own name for the tool
	title  string
	info   tools.Info
}

var _ tools.Tool = (*mcpTool)(nil)

func newTool(s *server, name string, t *sdk.Tool) *mcpTool {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if len(desc) > maxDescription {
		desc, _ = cutRunes(desc, maxDescription)
	}
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	if title == "" {
		title = t.Name
	}
	return &mcpTool{
		srv:    s,
		remote: t.Name,
		title:  title,
		info: tools.Info{
			Name:        name,
			Group:       tools.GroupMCP,
			Kind:        tools.KindOther,
			Description: desc,
			Schema:      inputSchema(t.InputSchema),
		},
	}
}

// inputSchema is the server's schema for the arguments, or an empty object
// schema when it sent none providers would accept.
func inputSchema(s any) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

func (t *mcpTool) sameAs(o *mcpTool) bool {
	return t.remote == o.remote && t.title == o.title && t.info.Description == o.info.Description &&
		bytes.Equal(t.info.Schema, o.info.Schema)
}

func (t *mcpTool) Info() tools.Info { return t.info }

// Describe titles a call "<tool> (<server> MCP)" and points at a "path"
// argument when there is one, which file servers commonly take.
func (t *mcpTool) Describe(root string, input json.RawMessage) tools.Preview {
	p := tools.Preview{Title: fmt.Sprintf("%s (%s MCP)", t.title, t.srv.cfg.Name)}
	var args struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(input, &args) == nil && args.Path != "" {
		path := args.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		p.Locations = []tools.Location{{Path: filepath.Clean(path)}}
	}
	return p
}

// Run asks for permission (the agent's policy decides per mode and
// remembers "always"), then calls the tool under the call timeout.
func (t *mcpTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	args, bad := arguments(input)
	if bad != "" {
		return tools.Result{Output: bad, IsError: true}, nil
	}
	if env != nil && env.Ask != nil {
		err := env.Ask(ctx, tools.Ask{Title: t.Describe(env.Root, input).Title, Kind: t.info.Kind})
		if errors.Is(err, tools.ErrRejected) {
			msg := "The user rejected this call."
			if err != tools.ErrRejected {
				msg = err.Error() // the agent's reason, such as a remembered rejection
			}
			return tools.Result{Output: msg, IsError: true}, nil
		}
		if err != nil {
			return tools.Result{}, err
		}
	}
	return t.srv.call(ctx, t.remote, args)
}

func arguments(input json.RawMessage) (map[string]any, string) {
	args := map[string]any{}
	trimmed := bytes.TrimSpace(input)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return args, ""
	}
	if err := json.Unmarshal(trimmed, &args); err != nil {
		return nil, fmt.Sprintf("The arguments must be a JSON object: %v", err)
	}
	return args, ""
}

// call runs one tool call. What the model should hear (the tool failed,
// timed out, the server is gone) is a Result; only the caller's own
// cancellation is an error.
func (s *server) call(ctx context.Context, name string, args map[string]any) (tools.Result, error) {
	cs, why := s.currentSession()
	if cs == nil {
		return tools.Result{Output: why, IsError: true}, nil
	}
	timeout := s.m.opts.CallTimeout
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Close ends calls in flight; cancelling callCtx makes the SDK send
	// notifications/cancelled, as it does for the caller's cancel.
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()

	res, err := cs.CallTool(callCtx, &sdk.CallToolParams{Name: name, Arguments: args})
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		return toResult(res), nil
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case s.ctx.Err() != nil:
		_, why := s.currentSession()
		return tools.Result{Output: why, IsError: true}, nil
	case errors.As(err, &rpcErr):
		// The server answered, with an error: it is alive and well.
		return tools.Result{Output: fmt.Sprintf("MCP error %d: %s", rpcErr.Code, rpcErr.Message), IsError: true}, nil
	}
	timedOut := errors.Is(err, context.DeadlineExceeded)
	if !s.alive(cs) {
		what := fmt.Sprintf("call failed (%v)", err)
		if timedOut {
			what = fmt.Sprintf("a call to %s got no answer within %s", name, timeout)
		}
		s.fault("stopped responding: " + what)
	}
	if timedOut {
		return tools.Result{Output: fmt.Sprintf("The tool did not finish within %s and was cancelled.", timeout), IsError: true}, nil
	}
	return tools.Result{Output: fmt.Sprintf("The MCP call failed: %v", err), IsError: true}, nil
}

// alive tells a server that is merely slow at one tool from one that is
// hung or gone: a hung server does not answer a ping either.
func (s *server) alive(cs *sdk.ClientSession) bool {
	wait := min(5*time.Second, s.m.opts.CallTimeout)
	ctx, cancel := context.WithTimeout(s.ctx, wait)
	defer cancel()
	return cs.Ping(ctx, nil) == nil
}

func cutRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n], true
}
