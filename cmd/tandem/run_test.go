package main

import (
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
)

// The terminal prompt offers a key per option, shows what the "always"
// options remember, and maps answers to the options' kinds.
func TestTerminalPermissionPrompt(t *testing.T) {
	options := []agent.PermissionOption{
		{ID: "allow_once", Name: "Allow", Kind: agent.AllowOnce},
		{ID: "allow_always", Name: "Always allow `go test …` in this project", Kind: agent.AllowAlways},
		{ID: "reject_once", Name: "Reject", Kind: agent.RejectOnce},
	}
	for _, tc := range []struct {
		input string
		want  agent.PermissionKind
	}{
		{"y\n", agent.AllowOnce},
		{"always\n", agent.AllowAlways},
		{"\n", agent.RejectOnce},
		{"never\nq\na\n", agent.AllowAlways}, // never is not offered here: asked again
		{"", agent.RejectOnce},               // EOF
	} {
		var errw strings.Builder
		h := &cliHost{out: newTextOutput(newScreen(&strings.Builder{}, &errw, style{}, false, nil)), in: newKeyboard(strings.NewReader(tc.input))}
		d, err := h.RequestPermission(t.Context(), agent.PermissionRequest{
			ToolCall: agent.ToolCall{Title: "Run `go test ./...`", Content: []agent.ToolContent{agent.TextContent("$ go test ./...")}},
			Options:  options,
		})
		if err != nil || d.Kind != tc.want {
			t.Errorf("answer %q: %+v, %v; want %s", tc.input, d, err, tc.want)
		}
		shown := errw.String()
		for _, w := range []string{"$ go test ./...", "[a] Always allow `go test …` in this project", "Choose [y/a/n]"} {
			if !strings.Contains(shown, w) {
				t.Errorf("answer %q: the prompt %q lacks %q", tc.input, shown, w)
			}
		}
	}
}
