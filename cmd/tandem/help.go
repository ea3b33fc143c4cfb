package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
)

// helpText is what `tandem NAME --help` says besides the flags: what the
// command is for, and examples to copy.
type helpText struct {
	about    string
	examples []string
}

func helpFor(name string) helpText {
	name, sub, _ := strings.Cut(name, " ") // "sessions show" is explained with sessions
	if sub != "" {
		return helpText{helpFor(name).about, nil}
	}
	switch name {
	case "acp":
		return helpText{"Serve the Agent Client Protocol on stdin/stdout. Editors (Zed, Neovim with\n" +
			"CodeCompanion or avante, Emacs agent-shell, JetBrains) start this themselves.",
			[]string{`{"agent_servers": {"tandem": {"command": "tandem", "args": ["acp"]}}}   # Zed settings.json`}}
	case "lsp":
		return helpText{"Serve LSP with tandem/* methods on stdin/stdout, for any LSP client\n" +
			"(Neovim's built-in client, VS Code through editors/vscode, Helix, eglot).",
			[]string{`vim.lsp.start({ name = "tandem", cmd = { "tandem", "lsp" } })`}}
	case "run":
		return helpText{"Run one prompt in a directory and print the answer. Flags may come anywhere;\n" +
			"`--` ends them. Piped stdin is added to the prompt. Questions are asked on the\n" +
			"terminal; without one nobody can answer them: pass --yes or --allow RULE, or the\n" +
			"call is refused.\n\n" +
			"Exit codes: 0 done, 1 error (the turn failed or stopped early), 2 usage,\n" +
			"3 a permission was needed but nobody could answer, 130 cancelled (Ctrl-C).",
			[]string{
				"tandem run explain the build in this repo",
				"git diff | tandem run review this change --mode ask",
				"tandem run --continue now add a test for it",
				"tandem run --output-format stream-json --allow 'run_command(go test:*)' fix the failing test",
			}}
	case "chat":
		return helpText{"Talk with the agent in a directory, turn after turn, in one session: the same agent\n" +
			"the editors host. Lines are edited in place, ↑/↓ recall earlier messages, a line ending\n" +
			"in \\ continues on the next, pasted text stays one message. Tab completes slash\n" +
			"commands: /mode, /model, /init, /instructions and the others the session offers, and\n" +
			"/sessions, /help, /exit. Ctrl-C cancels a turn (twice quits); Ctrl-D leaves.\n" +
			"`tandem` alone on a terminal opens it too.",
			[]string{"tandem", "tandem chat --mode auto-edit", "tandem chat --continue"}}
	case "defs":
		return helpText{"List the code definitions (functions, types, methods...) tree-sitter finds.",
			[]string{"tandem defs main.go", "tandem defs --json ./agent"}}
	case "map":
		return helpText{"Print the repository map a session's first request carries: files ranked by\n" +
			"cross-file references, each with its key definitions.",
			[]string{"tandem map --tokens 2000 .", "tandem map --focus agent/turn.go"}}
	case "instructions":
		return helpText{"Print the workspace instructions (AGENTS.md, CLAUDE.md, ...) a new session in\n" +
			"DIR would send to the model.", []string{"tandem instructions", "tandem instructions --json ~/src/app"}}
	case "sessions":
		return helpText{"List, show, export, delete and prune the sessions stored under\n" +
			"$TANDEM_HOME/sessions.",
			[]string{"tandem sessions", "tandem sessions show s_1a2b", "tandem sessions export --format markdown s_1a2b > chat.md",
				"tandem sessions prune --older-than 720h"}}
	case "doctor":
		return helpText{"Check the setup, one line per check, each failure with its fix: the provider\n" +
			"key (and, with --online, one cheap request), the model, config files, instruction\n" +
			"files, MCP servers, the sandbox, editors, $TANDEM_HOME and the log location.",
			[]string{"tandem doctor", "tandem doctor --online"}}
	case "login":
		return helpText{"Store a provider API key in $TANDEM_HOME/credentials.json (mode 0600), where every\n" +
			"tandem finds it when the environment and config.json have none. On a terminal the key\n" +
			"is asked for without echo; otherwise one line is read from stdin.",
			[]string{"tandem login", "printf %s \"$KEY\" | tandem login --provider openai"}}
	case "version":
		return helpText{"Print tandem's version and the commit it was built from.", []string{"tandem version"}}
	}
	return helpText{}
}

// flags returns a FlagSet that prints its usage to m.Stderr: the usage
// line, what the command does, its flags and examples.
func (m *Main) flags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("tandem "+name, flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.Usage = func() {
		h := helpFor(name)
		fmt.Fprintf(m.Stderr, "usage: tandem %s %s\n", name, usage)
		if h.about != "" {
			fmt.Fprintf(m.Stderr, "\n%s\n", h.about)
		}
		if hasFlags(fs) {
			fmt.Fprintln(m.Stderr, "\nflags:")
			fs.PrintDefaults()
		} else {
			fmt.Fprintln(m.Stderr, "\nflags: none")
		}
		if len(h.examples) > 0 {
			fmt.Fprintf(m.Stderr, "\nexamples:\n  %s\n", strings.Join(h.examples, "\n  "))
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func runVersion(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("version", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Fprint(m.Stdout, currentBuild().String())
	return nil
}
