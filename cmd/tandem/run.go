package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
)

func runRun(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("run", "[--cwd DIR] [--mode MODE] [--yes] PROMPT...")
	cwd := fs.String("cwd", ".", "the workspace directory")
	mode := fs.String("mode", string(agent.ModeCode), strings.Join(agent.ModeIDs(), " | "))
	yes := fs.Bool("yes", false, "approve every permission request (without a terminal, requests are denied unless this is set)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" {
		fs.Usage()
		return errUsage
	}
	md, err := agent.ParseMode(*mode)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(*cwd)
	if err != nil {
		return err
	}
	a, err := m.newAgent()
	if err != nil {
		return err
	}
	defer m.closeAgent(a)
	h := &cliHost{out: m.Stdout, errw: m.Stderr, yes: *yes}
	if f, ok := m.Stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			h.in = bufio.NewReader(f)
		}
	}
	s, err := a.NewSession(ctx, agent.SessionOptions{Cwd: dir, Mode: md, Host: h})
	if err != nil {
		return err
	}
	defer s.Close()
	// Edits stay inside the session root even if a tool's own check missed.
	h.Root = s.Root()
	stop := context.AfterFunc(ctx, s.Cancel)
	defer stop()
	reason, err := s.Prompt(context.WithoutCancel(ctx), []agent.ContentBlock{{Type: "text", Text: text}})
	h.finish()
	turn, _ := s.Usage()
	h.summary(turn)
	if err != nil {
		return err
	}
	switch reason {
	case agent.StopEndTurn:
		return nil
	case agent.StopCancelled:
		fmt.Fprintln(m.Stderr, "tandem run: cancelled")
		return exitCode(130)
	}
	return fmt.Errorf("the turn ended early: %s", reason)
}

// cliHost serves a session on a terminal: the model's text on stdout, tool
// activity on stderr, edits and commands on the local machine.
type cliHost struct {
	local.Host
	out, errw io.Writer
	in        *bufio.Reader // nil without a terminal
	yes       bool

	mu      sync.Mutex // guards the fields below and the writers
	titles  map[string]string
	midLine bool                // stdout does not end in a newline
	context *agent.ContextUsage // the latest usage_update
}

var _ agent.Host = (*cliHost)(nil)

func (h *cliHost) Send(u agent.Update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.titles == nil {
		h.titles = map[string]string{}
	}
	switch u.Type {
	case agent.AgentMessageChunk:
		if u.Chunk != nil {
			io.WriteString(h.out, u.Chunk.Text)
			h.midLine = !strings.HasSuffix(u.Chunk.Text, "\n")
		}
	case agent.ToolCallStarted:
		h.titles[u.Tool.ID] = u.Tool.Title
		h.endLine()
		fmt.Fprintf(h.errw, "• %s\n", u.Tool.Title)
	case agent.ToolCallUpdated:
		switch u.Tool.Status {
		case agent.ToolCompleted:
			fmt.Fprintf(h.errw, "  ✓ %s\n", h.titles[u.Tool.ID])
		case agent.ToolFailed:
			msg := ""
			if len(u.Tool.Content) > 0 && u.Tool.Content[0].Content != nil {
				msg = ": " + firstLine(u.Tool.Content[0].Content.Text)
			}
			fmt.Fprintf(h.errw, "  ✗ %s%s\n", h.titles[u.Tool.ID], msg)
		}
	case agent.UsageUpdated:
		h.context = u.Usage
	case agent.PlanUpdated:
		h.endLine()
		for _, e := range u.Plan {
			mark := map[string]string{"completed": "[x]", "in_progress": "[~]"}[e.Status]
			if mark == "" {
				mark = "[ ]"
			}
			fmt.Fprintf(h.errw, "  %s %s\n", mark, e.Content)
		}
	}
}

func (h *cliHost) endLine() {
	if h.midLine {
		io.WriteString(h.out, "\n")
		h.midLine = false
	}
}

func (h *cliHost) finish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endLine()
}

func (h *cliHost) RequestPermission(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endLine()
	if h.yes {
		return agent.Decision{Kind: agent.AllowOnce}, nil
	}
	if h.in == nil {
		fmt.Fprintf(h.errw, "  denied: %s (no terminal to ask on; pass --yes to approve)\n", req.ToolCall.Title)
		return agent.Decision{Kind: agent.RejectOnce}, nil
	}
	fmt.Fprintf(h.errw, "\n%s\n", req.ToolCall.Title)
	for _, c := range req.ToolCall.Content {
		switch {
		case c.Type == "diff" && c.NewText != nil:
			fe := edits.FileEdit{Path: c.Path, New: *c.NewText, Create: c.OldText == nil}
			if c.OldText != nil {
				fe.Old = *c.OldText
			}
			fmt.Fprint(h.errw, edits.Unified(c.Path, fe))
		case c.Content != nil:
			fmt.Fprintln(h.errw, c.Content.Text)
		}
	}
	for {
		fmt.Fprint(h.errw, "Allow? [y]es, [a]lways, [n]o, ne[v]er: ")
		line, err := h.in.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return agent.Decision{Kind: agent.RejectOnce}, nil
			}
			return agent.Decision{}, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return agent.Decision{Kind: agent.AllowOnce}, nil
		case "a", "always":
			return agent.Decision{Kind: agent.AllowAlways}, nil
		case "n", "no", "":
			return agent.Decision{Kind: agent.RejectOnce}, nil
		case "v", "never":
			return agent.Decision{Kind: agent.RejectAlways}, nil
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
