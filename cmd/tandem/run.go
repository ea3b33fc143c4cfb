package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

// Exit codes of `tandem run`, documented in its --help and the README.
const (
	exitError      = 1
	exitUsage      = 2
	exitCannotAsk  = 3 // a call needed the user's approval and nobody could answer
	exitCancelled  = 130
	outputText     = "text"
	outputJSON     = "json"
	outputStream   = "stream-json"
	defaultRunMode = agent.ModeCode
)

// runOptions are `tandem run`'s flags.
type runOptions struct {
	cwd, mode, model, resume, format string
	cont, yes                        bool
	maxTurns                         int
	allow                            listFlag
	set                              map[string]bool // flags given on the line
}

func (m *Main) runFlags(o *runOptions) *flag.FlagSet {
	fs := m.flags("run", "[flags] PROMPT... [-- PROMPT...]")
	sessionFlags(fs, o)
	fs.StringVar(&o.format, "output-format", outputText, "`format` of stdout: text | json (one object at the end) | stream-json (one event per line)")
	return fs
}

// sessionFlags are the flags run and chat share: which session, where,
// how, and what may go ahead without asking.
func sessionFlags(fs *flag.FlagSet, o *runOptions) {
	fs.StringVar(&o.cwd, "cwd", ".", "the workspace `directory` (a resumed session keeps its own unless this is given)")
	fs.StringVar(&o.mode, "mode", string(defaultRunMode), "the session `mode`: "+strings.Join(agent.ModeIDs(), " | "))
	fs.StringVar(&o.model, "model", "", "the `model` id (default: TANDEM_MODEL, config.json, then the provider's default)")
	fs.StringVar(&o.resume, "resume", "", "continue the stored session with this `id` (see tandem sessions)")
	fs.BoolVar(&o.cont, "continue", false, "continue the latest session of this directory")
	fs.IntVar(&o.maxTurns, "max-turns", 0, "stop after this many model `requests` in a turn (default: config maxTurnRequests, 50)")
	fs.BoolVar(&o.yes, "yes", false, "approve every permission request")
	fs.Var(&o.allow, "allow", "approve calls matching this `rule`, e.g. 'run_command(go test:*)' or 'edit_file(src/**)'; repeatable")
}

// parseSessionFlags parses args with fs and records which flags were given.
func parseSessionFlags(fs *flag.FlagSet, o *runOptions, args []string) ([]string, error) {
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	return words, nil
}

// agentFor builds the agent for a run or chat session on h: --max-turns,
// --allow's seam, and retry notices on the screen. It also returns the
// instruction file names, which protected paths include.
func (m *Main) agentFor(o runOptions, h *cliHost, out output) (*agent.Agent, []string, error) {
	var instructionFiles []string
	a, err := m.newAgentWith(func(c *agent.Config) {
		if c.Instructions != nil {
			instructionFiles = c.Instructions.FileNames()
		}
		if o.maxTurns > 0 {
			c.MaxTurnRequests = o.maxTurns
		}
		c.Pipeline.BeforeAsk = append(c.Pipeline.BeforeAsk, h.preapprove)
	}, func(msg string) {
		out.screen().println(out.screen().style.dim("↻ " + msg))
	})
	if err == nil {
		// No editor waits for a first answer here: ask the provider for
		// its models at once, so /model offers them by the time it is typed.
		a.StartBackground()
	}
	return a, instructionFiles, err
}

func runRun(ctx context.Context, m *Main, args []string) error {
	var o runOptions
	fs := m.runFlags(&o)
	words, err := parseSessionFlags(fs, &o, args)
	if err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(m.Stderr, "tandem run: "+format+"\n\n", a...)
		fs.Usage()
		return errUsage
	}
	switch {
	case o.format != outputText && o.format != outputJSON && o.format != outputStream:
		return usage("unknown --output-format %q: use text, json or stream-json", o.format)
	case o.cont && o.resume != "":
		return usage("--continue and --resume name different sessions: give one")
	case o.maxTurns < 0:
		return usage("--max-turns must be positive")
	}
	rules, err := parseRules(o.allow)
	if err != nil {
		return usage("%v", err)
	}
	text, err := promptText(words, m.Stdin)
	if err != nil {
		return err
	}
	if text == "" {
		return usage("no prompt: give it as arguments or on stdin")
	}
	md := agent.Mode(o.mode) // checked below against the workspace's modes
	dir, err := filepath.Abs(o.cwd)
	if err != nil {
		return err
	}

	out := m.newOutput(o.format)
	defer out.screen().close()
	h := &cliHost{out: out, yes: o.yes, allow: rules}
	if in := m.questionInput(); in != nil {
		h.in = newKeyboard(in)
	}
	a, instructionFiles, err := m.agentFor(o, h, out)
	if err != nil {
		return err
	}
	defer m.closeAgent(a)
	if _, err := a.ParseModeAt(dir, o.mode); err != nil {
		return usage("%v", err)
	}
	s, err := m.openSession(ctx, a, o, dir, md, h)
	if err != nil {
		return err
	}
	defer s.Close()
	h.setRoot(s.Root(), instructionFiles)
	out.start(s)

	stop := context.AfterFunc(ctx, s.Cancel)
	defer stop()
	reason, err := s.Prompt(context.WithoutCancel(ctx), []agent.ContentBlock{{Type: "text", Text: text}})
	turn, _ := s.Usage()
	code, err := runOutcome(reason, err, h.cannotAsk(), o.maxTurns)
	err = m.explain(ctx, err)
	out.finish(runResult{session: s, reason: reason, usage: turn, err: err, code: code})
	if code == 0 {
		return nil
	}
	return exitCode(code)
}

// openSession starts the session the flags name: a stored one (--resume,
// --continue) or a new one in dir. A resumed session keeps its mode, model
// and directory unless a flag says otherwise.
func (m *Main) openSession(ctx context.Context, a *agent.Agent, o runOptions, dir string, md agent.Mode, h *cliHost) (*agent.Session, error) {
	so := agent.SessionOptions{Cwd: dir, Mode: md, Model: o.model, Host: h}
	id := o.resume
	if o.cont {
		metas, err := a.ListSessions(dir)
		if err != nil {
			return nil, err
		}
		if len(metas) == 0 {
			return nil, fmt.Errorf("--continue: no stored session in %s; start one without --continue", dir)
		}
		id = metas[0].ID
	}
	if id == "" {
		return a.NewSession(ctx, so)
	}
	so.ID = id
	if !o.set["cwd"] {
		so.Cwd = ""
	}
	if !o.set["mode"] {
		so.Mode = ""
	}
	s, err := a.ResumeSession(ctx, so)
	if err != nil {
		return nil, fmt.Errorf("resuming %s: %w (tandem sessions lists the stored ones)", id, err)
	}
	return s, nil
}

// runOutcome maps how the turn ended to an exit code and the error to
// report (nil when there is none to print).
func runOutcome(reason agent.StopReason, err error, cannotAsk bool, maxTurns int) (int, error) {
	switch {
	case err != nil:
		return exitError, err
	case reason == agent.StopCancelled:
		return exitCancelled, errors.New("cancelled")
	case reason == agent.StopMaxTurnRequests && maxTurns > 0:
		return exitError, fmt.Errorf("stopped after %d model requests (--max-turns)", maxTurns)
	case reason != agent.StopEndTurn:
		return exitError, fmt.Errorf("the turn ended early: %s", reason)
	case cannotAsk:
		return exitCannotAsk, errors.New("a call needed approval and there was no terminal to ask on: rerun with --yes or --allow RULE, or in a terminal")
	}
	return 0, nil
}

// explain adds what to do to a provider error the message alone leaves
// open: a 404 names the models the provider offers. The provider's own
// words stay first.
func (m *Main) explain(ctx context.Context, err error) error {
	var pe *llm.Error
	if !errors.As(err, &pe) || pe.Status != 404 {
		return err
	}
	hint := "; set the model with --model or TANDEM_MODEL"
	if cfg, cerr := config.Load(m.Getenv); cerr == nil {
		hint = modelsHint(context.WithoutCancel(ctx), cfg) + hint
	}
	return fmt.Errorf("%w%s", err, hint)
}

// questionInput is where permission questions are answered: stdin when it
// is a terminal; else, when stderr is a terminal (`git diff | tandem run
// ...` typed at a prompt), the controlling terminal. nil when there is
// nobody to ask: a pipeline's or CI's run without a terminal.
func (m *Main) questionInput() io.Reader {
	if isTerminal(m.Stdin) {
		return m.Stdin
	}
	if !isTerminal(m.Stderr) {
		return nil
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return nil
	}
	if !isTerminal(tty) {
		tty.Close()
		return nil
	}
	return tty // read until the process ends, like stdin
}
