package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/config"
)

// chatCommands are the slash commands the loop handles itself; the rest
// (/mode, /model, /init, /instructions, ...) go to the session like any
// prompt, as they do from an editor.
var chatCommands = []agent.Command{
	{Name: "help", Description: "list the commands"},
	{Name: "sessions", Description: "list this directory's sessions (resume one with tandem chat --resume ID)"},
	{Name: "exit", Description: "leave (Ctrl-D does too)"},
}

// runChat is the conversation loop: `tandem chat`, or `tandem` alone on a
// terminal. One session in one directory; each message is a turn of the
// same agent the editors host.
func runChat(ctx context.Context, m *Main, args []string) error {
	var o runOptions
	fs := m.flags("chat", "[flags] [FIRST MESSAGE...]")
	sessionFlags(fs, &o)
	words, err := parseSessionFlags(fs, &o, args)
	if err != nil {
		return err
	}
	if !isTerminal(m.Stdin) || !isTerminal(m.Stderr) {
		fmt.Fprintln(m.Stderr, "tandem chat: needs a terminal; for scripts use tandem run")
		return errUsage
	}
	rules, err := parseRules(o.allow)
	if err != nil {
		return err
	}
	md, err := agent.ParseMode(o.mode)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(o.cwd)
	if err != nil {
		return err
	}
	kb := newKeyboard(m.Stdin)
	out := m.newOutput(outputText).(*textOutput)
	out.name = "tandem"
	defer out.screen().close()
	h := &cliHost{out: out, in: kb, yes: o.yes, allow: rules}
	a, instructionFiles, err := m.agentFor(o, h, out)
	if err != nil {
		return err
	}
	defer m.closeAgent(a)
	s, err := m.openSession(ctx, a, o, dir, md, h)
	if err != nil {
		return err
	}
	defer s.Close()
	h.setRoot(s.Root(), instructionFiles)

	c := &chat{m: m, s: s, out: out, a: a}
	c.ed = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{kb, m.Stderr}, "› ")
	if home, err := config.Home(m.Getenv); err == nil {
		hist := openHistory(home)
		defer hist.close()
		c.ed.History = hist
	}
	c.ed.SetBracketedPasteMode(true)
	defer c.ed.SetBracketedPasteMode(false)
	c.ed.AutoCompleteCallback = c.complete
	st := out.screen().style
	fmt.Fprintf(m.Stderr, "%s\n", st.dim(fmt.Sprintf("tandem · %s · %s mode · %s — /help for commands, Ctrl-D to leave", s.Cwd(), s.Mode(), s.Model())))
	if first := strings.TrimSpace(strings.Join(words, " ")); first != "" {
		c.turn(ctx, first)
	}
	return c.loop(ctx)
}

// chat is one conversation loop's state.
type chat struct {
	m   *Main
	a   *agent.Agent
	s   *agent.Session
	out *textOutput
	ed  *term.Terminal
}

func (c *chat) loop(ctx context.Context) error {
	fd := int(c.m.Stdin.(*os.File).Fd())
	for ctx.Err() == nil {
		raw, err := term.MakeRaw(fd)
		if err != nil {
			return fmt.Errorf("tandem chat: the terminal: %w", err)
		}
		if w, _, err := term.GetSize(fd); err == nil {
			c.ed.SetSize(w, 0)
		}
		text, err := c.read()
		term.Restore(fd, raw)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(c.m.Stderr)
			return nil
		}
		if err != nil {
			return err
		}
		text = strings.TrimSpace(text)
		switch {
		case text == "":
			continue
		case text == "/exit" || text == "/quit":
			return nil
		case text == "/help":
			c.help()
			continue
		case text == "/sessions":
			c.sessions()
			continue
		}
		c.turn(ctx, text)
	}
	return nil
}

// read reads one message: a line, or several when a line ends with a
// backslash or the text was pasted (a pasted block ends at the next line
// typed, which may be empty).
func (c *chat) read() (string, error) {
	var b strings.Builder
	defer c.ed.SetPrompt("› ")
	for {
		line, err := c.ed.ReadLine()
		switch {
		case errors.Is(err, term.ErrPasteIndicator):
			b.WriteString(line + "\n")
			c.ed.SetPrompt("… ")
			continue
		case err != nil:
			return "", err
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			b.WriteString(cont + "\n")
			c.ed.SetPrompt("… ")
			continue
		}
		b.WriteString(line)
		return b.String(), nil
	}
}

// turn sends one message. The first Ctrl-C cancels the turn; from then on
// the default handling is back, so a second one quits at once.
func (c *chat) turn(ctx context.Context, text string) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-sig:
			signal.Stop(sig)
			c.s.Cancel()
		case <-done:
		}
	}()
	c.out.start(c.s)
	reason, err := c.s.Prompt(ctx, []agent.ContentBlock{{Type: "text", Text: text}})
	close(done)
	<-watched
	signal.Stop(sig)
	turn, _ := c.s.Usage()
	code, err := runOutcome(reason, err, false, 0)
	err = c.m.explain(ctx, err)
	c.out.finish(runResult{session: c.s, reason: reason, usage: turn, err: err, code: code})
}

func (c *chat) help() {
	var lines []string
	for _, cmd := range append(c.s.Commands(), chatCommands...) {
		line := fmt.Sprintf("  /%-14s %s", cmd.Name, cmd.Description)
		if cmd.Input != nil && !strings.Contains(cmd.Description, cmd.Input.Hint) {
			line += c.out.screen().style.dim(" (" + cmd.Input.Hint + ")")
		}
		lines = append(lines, line)
	}
	lines = append(lines, "  End a line with \\ to go on to the next; Tab completes commands; ↑/↓ recall messages.")
	c.out.screen().println(lines...)
}

func (c *chat) sessions() {
	metas, err := c.a.ListSessions(c.s.Cwd())
	if err != nil {
		c.out.screen().println(err.Error())
		return
	}
	var lines []string
	for _, meta := range metas {
		mark := " "
		if meta.ID == c.s.ID() {
			mark = "*"
		}
		lines = append(lines, fmt.Sprintf("%s %s  %s", mark, meta.ID, meta.Title))
	}
	c.out.screen().println(lines...)
}

// complete completes a slash command's name on Tab, and the argument of
// /mode and /model.
func (c *chat) complete(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' || !strings.HasPrefix(line, "/") || pos != len(line) {
		return "", 0, false
	}
	var options []string
	prefix := line[1:]
	if name, _, ok := strings.Cut(prefix, " "); ok {
		var args []string
		switch name {
		case "mode":
			args = agent.ModeIDs()
		case "model":
			args = c.a.Models()
		}
		for _, a := range args {
			options = append(options, name+" "+a)
		}
	} else {
		for _, cmd := range append(c.s.Commands(), chatCommands...) {
			options = append(options, cmd.Name)
		}
	}
	var match []string
	for _, o := range options {
		if strings.HasPrefix(o, prefix) {
			match = append(match, o)
		}
	}
	if len(match) == 0 {
		return "", 0, false
	}
	common := match[0]
	for _, mt := range match[1:] {
		for !strings.HasPrefix(mt, common) {
			common = common[:len(common)-1]
		}
	}
	if len(match) == 1 {
		common += " "
	}
	out := "/" + common
	return out, len(out), true
}
