package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/pathx"
)

// commandArgs is the single argument of tandem.lsp.ask and tandem.lsp.fix.
type commandArgs struct {
	URI         string                `json:"uri"`
	Range       *edits.Range          `json:"range,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics,omitempty"`
	// SessionID picks the session; empty uses this connection's latest
	// session for the file's workspace, or starts one.
	SessionID string `json:"sessionId,omitempty"`
	// Question replaces the default question of tandem.lsp.ask.
	Question string `json:"question,omitempty"`
}

type codeActionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Range   edits.Range `json:"range"`
	Context struct {
		Diagnostics []protocol.Diagnostic `json:"diagnostics"`
		Only        []string              `json:"only"`
	} `json:"context"`
}

type command struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments"`
}

type codeAction struct {
	Title       string                `json:"title"`
	Kind        string                `json:"kind"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics,omitempty"`
	Command     command               `json:"command"`
}

// codeAction offers "Ask tandem about this" on a selection and "Fix with
// tandem" where there is a selection or a diagnostic; a bare cursor on a
// clean line gets nothing, so the editor's light bulb does not show on
// every line. Both run through workspace/executeCommand.
func (s *Server) codeAction(_ context.Context, params json.RawMessage) (any, error) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if _, err := uriToPath(p.TextDocument.URI); err != nil {
		return []codeAction{}, nil
	}
	ask := commandArgs{URI: p.TextDocument.URI, Range: &p.Range}
	fix := ask
	fix.Diagnostics = p.Context.Diagnostics
	selected := p.Range.Start != p.Range.End
	actions := []codeAction{}
	if selected {
		actions = append(actions, codeAction{Title: "Ask tandem about this", Kind: string(protocol.Refactor),
			Command: command{Title: "Ask tandem about this", Command: cmdAsk, Arguments: []any{ask}}})
	}
	if selected || len(fix.Diagnostics) > 0 {
		actions = append(actions, codeAction{Title: "Fix with tandem", Kind: string(protocol.QuickFix), Diagnostics: fix.Diagnostics,
			Command: command{Title: "Fix with tandem", Command: cmdFix, Arguments: []any{fix}}})
	}
	if len(p.Context.Only) == 0 {
		return actions, nil
	}
	var out []codeAction
	for _, a := range actions {
		for _, k := range p.Context.Only {
			if a.Kind == k || strings.HasPrefix(a.Kind, k+".") {
				out = append(out, a)
				break
			}
		}
	}
	if out == nil {
		out = []codeAction{}
	}
	return out, nil
}

type executeCommandResult struct {
	SessionID  string           `json:"sessionId"`
	StopReason agent.StopReason `json:"stopReason"`
}

// executeCommand runs tandem.lsp.ask or tandem.lsp.fix as a prompt about the range
// and answers when the turn ends.
func (s *Server) executeCommand(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Command != cmdAsk && p.Command != cmdFix {
		return nil, invalidParams("unknown command %q: tandem offers %s and %s", p.Command, cmdAsk, cmdFix)
	}
	if len(p.Arguments) != 1 {
		return nil, invalidParams("%s takes one argument {uri, range?, diagnostics?}", p.Command)
	}
	var a commandArgs
	if err := decode(p.Arguments[0], &a); err != nil {
		return nil, err
	}
	path, err := uriToPath(a.URI)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	ss, err := s.sessionFor(ctx, a.SessionID, path)
	if err != nil {
		return nil, err
	}
	text := commandPrompt(p.Command, a)
	blocks, err := s.withContext(ctx, ss, []agent.ContentBlock{{Type: "text", Text: text}}, []contextItem{{URI: a.URI, Range: a.Range}})
	if err != nil {
		return nil, err
	}
	res, err := s.runPrompt(ctx, ss, blocks)
	if err != nil {
		return nil, err
	}
	return executeCommandResult{SessionID: ss.id, StopReason: res.StopReason}, nil
}

func commandPrompt(cmd string, a commandArgs) string {
	if cmd == cmdAsk {
		if a.Question != "" {
			return a.Question
		}
		return "Explain the code below: what it does, and anything that looks wrong."
	}
	var b strings.Builder
	b.WriteString("Fix the problems in the code below")
	if len(a.Diagnostics) == 0 {
		b.WriteString(".")
		return b.String()
	}
	b.WriteString(". The editor reports:\n")
	for _, d := range a.Diagnostics {
		fmt.Fprintf(&b, "- line %d: %s", d.Range.Start.Line+1, d.Message)
		if d.Source != "" {
			fmt.Fprintf(&b, " (%s)", d.Source)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// sessionFor picks the session a command runs in: the named one, else the
// most recently started session whose root holds path, else a new session
// in the workspace folder holding path.
func (s *Server) sessionFor(ctx context.Context, id, path string) (*session, error) {
	if id != "" {
		return s.session(id)
	}
	s.sessionsMu.Lock()
	var best *session
	for _, ss := range s.sessions {
		if within(ss.sess.Root(), canonical(path)) && (best == nil || ss.seq > best.seq) {
			best = ss
		}
	}
	s.sessionsMu.Unlock()
	if best != nil {
		return best, nil
	}
	cwd := filepath.Dir(path)
	s.stateMu.Lock()
	for _, f := range s.folders {
		if within(f, path) {
			cwd = f
			break
		}
	}
	s.stateMu.Unlock()
	ss, err := s.startSession(ctx, cwd, "", nil, nil)
	if err != nil {
		return nil, err
	}
	ss.release()
	return ss, nil
}

func within(root, path string) bool {
	_, ok := pathx.Within(root, path)
	return ok
}
