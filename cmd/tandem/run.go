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
	yes := fs.Bool("yes", false, "approve every permission request (without a terminal, whatever would ask is refused unless this is set)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" {
		fs.Usage()
		return errUsage
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
	s, err := a.NewSession(ctx, agent.SessionOptions{Cwd: dir, Mode: agent.Mode(*mode), Host: h})
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

// RequestPermission asks on the terminal. --yes is the user's consent to
// everything, given up front; without a terminal and without --yes there
// is no one to ask, and the agent's policy refuses what needed an answer.
func (h *cliHost) RequestPermission(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endLine()
	if h.yes {
		return agent.Decision{Kind: agent.AllowOnce}, nil
	}
	if h.in == nil {
		fmt.Fprintf(h.errw, "  cannot ask: %s (no terminal to ask on; pass --yes to approve)\n", req.ToolCall.Title)
		return agent.Decision{}, agent.ErrCannotAsk
	}
	h.showRequest(req)
	return h.readAnswer(req.Options)
}

// showRequest prints what the call wants to do: its title, then the diff
// or the command line.
func (h *cliHost) showRequest(req agent.PermissionRequest) {
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
}

// readAnswer lists the options, one key each (the "always" ones say what
// they remember), and reads keys until one is offered. Enter and EOF reject.
func (h *cliHost) readAnswer(options []agent.PermissionOption) (agent.Decision, error) {
	keys := map[agent.PermissionKind]string{agent.AllowOnce: "y", agent.AllowAlways: "a", agent.RejectOnce: "n", agent.RejectAlways: "v"}
	choices := map[string]agent.PermissionKind{}
	var letters []string
	for _, o := range options {
		if k, ok := keys[o.Kind]; ok {
			fmt.Fprintf(h.errw, "  [%s] %s\n", k, o.Name)
			choices[k] = o.Kind
			letters = append(letters, k)
		}
	}
	for {
		fmt.Fprintf(h.errw, "Choose [%s] (Enter rejects): ", strings.Join(letters, "/"))
		line, err := h.in.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return agent.Decision{Kind: agent.RejectOnce}, nil
			}
			return agent.Decision{}, err
		}
		answer := strings.ToLower(strings.TrimSpace(line))
		if word, ok := map[string]string{"": "n", "yes": "y", "always": "a", "no": "n", "never": "v"}[answer]; ok {
			answer = word
		}
		if k, ok := choices[answer]; ok {
			return agent.Decision{Kind: k}, nil
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
