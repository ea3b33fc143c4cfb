// Command tandem hosts a coding agent for an editor. Editors start it over
// stdio: `tandem acp` speaks the Agent Client Protocol, `tandem lsp` speaks
// LSP with tandem/* methods. `tandem run` is the same agent on a terminal.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/tandemhq/tandem/agent/sandbox"
)

// version is set at link time (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	// First: as the sandbox helper this process only sets up and runs one
	// command (see agent/sandbox).
	sandbox.Main()
	if err := notDumpable(); err != nil {
		fmt.Fprintf(os.Stderr, "tandem: cannot mark the process non-dumpable: %v\n", err)
	}
	if len(os.Args) > 1 && (os.Args[1] == "acp" || os.Args[1] == "lsp" || os.Args[1] == "run") {
		configureSandbox(os.Getenv, os.Stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	m := &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
	code := m.Run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// Main is the testable entry point: everything a subcommand touches of the
// process comes through it.
type Main struct {
	Stdin  io.Reader
	Stdout io.Writer // the protocol channel for acp and lsp
	Stderr io.Writer // logs and human messages
	Getenv func(string) string
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, m *Main, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"acp":          {"serve the Agent Client Protocol on stdio (Zed, Neovim, Emacs, JetBrains)", runACP},
		"lsp":          {"serve LSP with tandem/* methods on stdio (Neovim, VS Code, Helix, eglot)", runLSP},
		"run":          {"run one prompt in a directory and stream the answer", runRun},
		"defs":         {"list code definitions of files or trees", runDefs},
		"map":          {"print a tree's repository map: files ranked by references, with their key definitions", runMap},
		"instructions": {"print the workspace instructions a new session would send", runInstructions},
		"sessions":     {"list stored sessions", runSessions},
		"login":        {"store a provider API key in $TANDEM_HOME/credentials.json (mode 0600)", runLogin},
		"version":      {"print the version", runVersion},
	}
}

// errUsage marks an error already explained by a usage message.
var errUsage = errors.New("usage")

// Run executes one subcommand and returns the process exit code.
func (m *Main) Run(ctx context.Context, args []string) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		m.usage(cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(m.Stderr, "tandem: unknown command %q\n\n", args[0])
		m.usage(cmds)
		return 2
	}
	if err := c.run(ctx, m, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		if errors.Is(err, errUsage) {
			return 2
		}
		if ec, ok := err.(exitCode); ok {
			return int(ec) // the command has said why
		}
		fmt.Fprintf(m.Stderr, "tandem %s: %v\n", args[0], err)
		var ec exitCode
		if errors.As(err, &ec) {
			return int(ec)
		}
		return 1
	}
	return 0
}

// exitCode lets a subcommand choose its exit status.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func (m *Main) usage(cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(m.Stderr, "usage: tandem <command> [arguments]\n\ncommands:")
	for _, n := range names {
		fmt.Fprintf(m.Stderr, "  %-13s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(m.Stderr, "\nRun 'tandem <command> --help' for a command's flags.")
}

// flags returns a FlagSet that prints its usage to m.Stderr.
func (m *Main) flags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("tandem "+name, flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(m.Stderr, "usage: tandem %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

func runVersion(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("version", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "tandem %s\n", version)
	return nil
}
