package agent

import "encoding/json"

// Nesting marks an update (or a permission question) a subagent caused:
// the task tool call that started it and the agent's name. It travels in
// the update's _meta twice: under claudeCode.parentToolUseId, the key
// Zed and claude-agent-acp use to nest a subagent's work in its task
// call's card, and under tandem's own key. The session log keeps it, so a
// replay nests the same way.
type Nesting struct {
	ParentCall string // the task call's id, as the editor knows it
	Agent      string // the subagent's name
}

// TermMeta is a live terminal's part of a tool call's updates, for
// clients that show a command's output while it runs (they send
// clientCapabilities._meta.terminal_output, the convention of codex-acp
// and claude-agent-acp): Info on the tool_call announces the terminal,
// each Output piece is appended to it, Exit ends it. Live only: the log
// keeps the command's output as text, because a replayed terminal id names
// nothing.
type TermMeta struct {
	ID     string
	Info   bool
	Output string
	Exit   *TermExit
}

// TermExit is how a live command ended.
type TermExit struct {
	Code   int    // -1 when a signal or the timeout ended it
	Signal string // "" when it exited by itself
}

// wireMeta is the _meta object of an update.
type wireMeta struct {
	ClaudeCode     *metaClaudeCode `json:"claudeCode,omitempty"`
	Tandem         *metaTandem     `json:"tandem,omitempty"`
	TerminalInfo   *metaTerm       `json:"terminal_info,omitempty"`
	TerminalOutput *metaTermOutput `json:"terminal_output,omitempty"`
	TerminalExit   *metaTermExit   `json:"terminal_exit,omitempty"`
}

type metaClaudeCode struct {
	ParentToolUseID string `json:"parentToolUseId"`
}

type metaTandem struct {
	ParentToolCallID string `json:"parentToolCallId"`
	Agent            string `json:"agent,omitempty"`
}

type metaTerm struct {
	TerminalID string `json:"terminal_id"`
}

type metaTermOutput struct {
	TerminalID string `json:"terminal_id"`
	Data       string `json:"data"`
}

// metaTermExit is an exit code or, like codex-acp's, a signal and no code.
type metaTermExit struct {
	TerminalID string  `json:"terminal_id"`
	ExitCode   *int    `json:"exit_code"`
	Signal     *string `json:"signal"`
}

// encodeMeta is the _meta of an update nested under n and carrying the
// terminal part t; nil when there is neither.
func encodeMeta(n *Nesting, t *TermMeta) (json.RawMessage, error) {
	if n == nil && t == nil {
		return nil, nil
	}
	var m wireMeta
	if n != nil {
		m.ClaudeCode = &metaClaudeCode{n.ParentCall}
		m.Tandem = &metaTandem{n.ParentCall, n.Agent}
	}
	if t != nil {
		if t.Info {
			m.TerminalInfo = &metaTerm{t.ID}
		}
		if t.Output != "" {
			m.TerminalOutput = &metaTermOutput{t.ID, t.Output}
		}
		if e := t.Exit; e != nil {
			m.TerminalExit = &metaTermExit{TerminalID: t.ID}
			if e.Signal != "" {
				m.TerminalExit.Signal = &e.Signal
			} else {
				m.TerminalExit.ExitCode = &e.Code
			}
		}
	}
	return json.Marshal(m)
}

// decodeMeta reads what encodeMeta wrote. _meta is read leniently, as
// metadata should be: a value of another shape means nothing.
func decodeMeta(raw json.RawMessage) (*Nesting, *TermMeta) {
	var m wireMeta
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil, nil
	}
	var n *Nesting
	switch {
	case m.Tandem != nil && m.Tandem.ParentToolCallID != "":
		n = &Nesting{ParentCall: m.Tandem.ParentToolCallID, Agent: m.Tandem.Agent}
	case m.ClaudeCode != nil && m.ClaudeCode.ParentToolUseID != "":
		n = &Nesting{ParentCall: m.ClaudeCode.ParentToolUseID}
	}
	if m.TerminalInfo == nil && m.TerminalOutput == nil && m.TerminalExit == nil {
		return n, nil
	}
	t := &TermMeta{}
	if m.TerminalInfo != nil {
		t.ID, t.Info = m.TerminalInfo.TerminalID, true
	}
	if o := m.TerminalOutput; o != nil {
		t.ID, t.Output = o.TerminalID, o.Data
	}
	if e := m.TerminalExit; e != nil {
		t.ID, t.Exit = e.TerminalID, &TermExit{Code: -1}
		if e.ExitCode != nil {
			t.Exit.Code = *e.ExitCode
		}
		if e.Signal != nil {
			t.Exit.Signal = *e.Signal
		}
	}
	return n, t
}
