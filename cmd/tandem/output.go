package main

import (
	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"golang.org/x/term"
)

// output is one --output-format: how a run's events reach stdout. Prompts
// and notices go to the output's screen (stderr) in every format.
type output interface {
	start(s *agent.Session)
	send(u agent.Update)
	// edited reports an edit applied without a prompt having shown it.
	edited(path string, fe edits.FileEdit)
	// permission reports how a question was settled: "allowed",
	// "rejected" or "cannot_ask", and by whom ("user", "--yes", "--allow").
	permission(req agent.PermissionRequest, outcome, by string)
	finish(r runResult)
	screen() *screen
}

// runResult is how a run ended.
type runResult struct {
	session *agent.Session
	reason  agent.StopReason
	usage   agent.UsageTotals
	err     error // what to report; nil when the run succeeded
	code    int   // the exit code
}

// newOutput builds the output for format. The live screen (spinner,
// colour, redrawn regions) is only for text on a terminal.
func (m *Main) newOutput(format string) output {
	tty := isTerminal(m.Stderr) && isTerminal(m.Stdout)
	width := func() int {
		if f, ok := m.Stderr.(interface{ Fd() uintptr }); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil {
				return w
			}
		}
		return 0
	}
	switch format {
	case outputJSON, outputStream:
		st := newStyle(isTerminal(m.Stderr), m.Getenv)
		return newJSONOutput(m.Stdout, newScreen(nil, m.Stderr, st, false, width), format == outputStream)
	}
	st := newStyle(tty, m.Getenv)
	return newTextOutput(newScreen(m.Stdout, m.Stderr, st, tty, width))
}
