package hooks

import (
	"reflect"
	"testing"
	"time"
)

func TestMatching(t *testing.T) {
	srcs := []Source{{Path: "u", Config: Config{PreToolUse: {
		{Matcher: "Bash", Hooks: []Command{{Type: "command", Command: "bash"}}},
		{Matcher: "Edit|Write", Hooks: []Command{{Type: "command", Command: "edit"}}},
		{Matcher: "", Hooks: []Command{{Type: "command", Command: "all"}}},
		{Matcher: "mcp__gh__.*", Hooks: []Command{{Type: "command", Command: "gh"}}},
		{Matcher: "Bas", Hooks: []Command{{Type: "command", Command: "partial"}}},
	}}}}
	all := func(*Source) bool { return true }
	for tool, want := range map[string]string{
		"run_command":       "bash all",
		"write_file":        "edit all",
		"edit_file":         "edit all",
		"read_file":         "all",
		"mcp__gh__issue":    "all gh",
		"search_files":      "all",
		"list_files":        "all",
		"mcp__other__issue": "all",
	} {
		var got string
		for _, k := range matching(srcs, PreToolUse, tool, all) {
			if got != "" {
				got += " "
			}
			got += k.Command.Command
		}
		if got != want {
			t.Errorf("%s: ran %q, want %q", tool, got, want)
		}
	}
	if n := len(matching(srcs, PreToolUse, "run_command", func(*Source) bool { return false })); n != 0 {
		t.Errorf("a source not allowed ran %d hooks", n)
	}
}

func TestClaudeName(t *testing.T) {
	for tool, want := range map[string]string{"run_command": "Bash", "edit_file": "Edit", "write_file": "Write",
		"read_file": "Read", "list_files": "Glob", "search_files": "Grep", "mcp__a__b": "mcp__a__b", "update_plan": "update_plan"} {
		if got := claudeName(tool); got != want {
			t.Errorf("%s: %q, want %q", tool, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	if _, err := Parse([]byte(`{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[]}]}}`)); err == nil {
		t.Error("a matcher that does not compile was accepted")
	}
	if _, err := Parse([]byte(`{"hooks":[1]}`)); err == nil {
		t.Error("a hooks section of the wrong shape was accepted")
	}
	c, err := Parse([]byte(`{"permissions":{},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":5}]}]}}`))
	if err != nil || len(c[Stop]) != 1 || c[Stop][0].Hooks[0].timeout() != 5*time.Second {
		t.Errorf("parsed %v, %v", c, err)
	}
	for secs, want := range map[float64]time.Duration{0: DefaultTimeout, -1: DefaultTimeout, 1e9: MaxTimeout} {
		if got := (Command{Timeout: secs}).timeout(); got != want {
			t.Errorf("timeout %v: %v, want %v", secs, got, want)
		}
	}
}

func TestParseOutput(t *testing.T) {
	for _, c := range []struct {
		out  string
		want outcome
	}{
		{"plain text\n", outcome{plain: "plain text"}},
		{`{"decision":"block","reason":"no"}`, outcome{block: true, reason: "no"}},
		{`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"frozen"}}`, outcome{block: true, reason: "frozen"}},
		{`{"hookSpecificOutput":{"permissionDecision":"allow"}}`, outcome{}},
		{`{"continue":false,"stopReason":"enough"}`, outcome{halt: true, reason: "enough"}},
		{`{"systemMessage":"fyi","hookSpecificOutput":{"additionalContext":"ctx"}}`, outcome{notice: "fyi", context: "ctx"}},
		{`{not json`, outcome{plain: "{not json"}},
	} {
		got := parseOutput(c.out)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.out, got, c.want)
		}
	}
}
