package agent

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// slash is one slash command: a prompt whose whole text is "/name arg".
type slash struct {
	description string
	hint        string // argument hint; empty when it takes none
	// run handles the command on the turn's goroutine.
	run func(t *turnRun, arg string) (StopReason, error)
}

// builtins are the built-in slash commands; d names the modes /mode
// offers (nil when only the names are wanted).
func (p *customization) builtins(d *definitions) map[string]slash {
	var modes, hint string
	if d != nil {
		modes, hint = d.modes.choices(), strings.Join(d.modes.ids(), " | ")
	}
	return map[string]slash{
		"compact": {
			description: "Summarise the conversation so far to free context",
			hint:        "what the summary should keep (optional)",
			run: func(t *turnRun, arg string) (StopReason, error) {
				return t.compactCommand(arg)
			},
		},
		"init": {
			description: "Draft an AGENTS.md for this workspace",
			run: func(t *turnRun, arg string) (StopReason, error) {
				return t.converse([]ContentBlock{{Type: "text", Text: initPrompt(arg)}})
			},
		},
		"instructions": {
			description: "Show which workspace instruction files this session has loaded",
			run: func(t *turnRun, arg string) (StopReason, error) {
				s := t.s
				s.say(p.describeInstructions())
				return StopEndTurn, nil
			},
		},
		"mode": {
			description: "Switch mode: " + modes,
			hint:        hint,
			run: func(t *turnRun, arg string) (StopReason, error) {
				s := t.s
				if arg == "" {
					s.say(fmt.Sprintf("The mode is %s. Choose %s.", s.Mode(), p.current().modes.choices()))
					return StopEndTurn, nil
				}
				m := Mode(arg)
				if err := s.SetMode(m); errors.Is(err, ErrUnknownMode) {
					s.say(err.Error())
					return StopEndTurn, nil
				} else if err != nil {
					return "", err
				}
				s.say(fmt.Sprintf("Mode set to %s.", m))
				return StopEndTurn, nil
			},
		},
		"permissions": permissionsCommand(),
		"model": {
			description: "Switch the model for this session",
			hint:        "model id",
			run: func(t *turnRun, arg string) (StopReason, error) {
				s := t.s
				if arg == "" {
					s.say(fmt.Sprintf("The model is %s. Offered: %s.", s.Model(), strings.Join(s.a.Models(), ", ")))
					return StopEndTurn, nil
				}
				if err := s.SetModel(arg); errors.Is(err, ErrUnknownModel) {
					s.say(err.Error() + ".")
					return StopEndTurn, nil
				} else if err != nil {
					return "", err
				}
				s.say(fmt.Sprintf("Model set to %s.", arg))
				return StopEndTurn, nil
			},
		},
	}
}

// Commands lists the slash commands the session offers, sorted by name:
// the built-ins, custom commands and skills (session_custom.go) and MCP
// prompts (session_mcpoffers.go).
func (s *Session) Commands() []Command {
	var out []Command
	for name, c := range s.custom.builtins(s.custom.current()) {
		cmd := Command{Name: name, Description: c.description}
		if c.hint != "" {
			cmd.Input = &CommandInput{Hint: c.hint}
		}
		out = append(out, cmd)
	}
	out = append(out, customCommands(s.custom.set())...)
	out = append(out, mcpCommands(s.mcp.list())...)
	taken := make(map[string]bool, len(out))
	for _, c := range out {
		taken[c.Name] = true
	}
	out = append(out, extCommandList(s.custom.extCommands(), taken)...)
	// The first of a name is the one a prompt runs (a command file in a
	// folder named mcp/ before a server's prompt); list only that one.
	seen := map[string]bool{}
	out = slices.DeleteFunc(out, func(c Command) bool {
		dup := seen[c.Name]
		seen[c.Name] = true
		return dup
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// say sends a message from tandem itself (not the model) to the editor.
func (s *Session) say(text string) {
	s.emit(Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: text}})
}

func initPrompt(extra string) string {
	p := `Write an AGENTS.md at the workspace root for engineers and coding agents who will work here next.
First explore: list the files, read the README and build files, look at the main packages with list_code_definition_names.
Then write a short, factual AGENTS.md: what the project is, the exact commands to build, test and lint, where things live, and the conventions and invariants the code follows. Keep it under 80 lines. If an AGENTS.md exists, improve it instead of replacing what is still true.`
	if extra != "" {
		p += "\n\nThe user adds: " + extra
	}
	return p
}
