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
	"runtime/pprof"
	rtrace "runtime/trace"
	"sort"
	"sync"

	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/redact"
)

func main() {
	// First: as the sandbox helper this process only sets up and runs one
	// command (see agent/sandbox).
	sandbox.Main()
	servePlugin()
	if err := notDumpable(); err != nil {
		fmt.Fprintf(os.Stderr, "tandem: cannot mark the process non-dumpable: %v\n", err)
	}
	stopFloor := keepHeapFloor(os.Getenv, heapFloor, nil)
	stopProfile := profiles(os.Getenv("TANDEM_CPUPROFILE"), os.Getenv("TANDEM_TRACE"))
	stopHeap := heapOnSignal(os.Getenv("TANDEM_HEAPSTAT") != "", os.Getenv("TANDEM_MEMPROFILE"), os.Stderr)
	sub := "chat" // what `tandem` alone opens on a terminal
	if len(os.Args) > 1 {
		sub = os.Args[1]
	}
	var sandboxSet chan struct{}
	switch sub {
	case "acp", "lsp", "run", "chat":
		// Off the way to the first answer (its first JSON encoding alone
		// cost an editor's initialize 0.5 ms): the agent's build waits for
		// it (Main.sandboxSet), and nothing before reads what it sets.
		sandboxSet = make(chan struct{})
		go func() {
			defer close(sandboxSet)
			configureSandbox(os.Getenv, os.Stderr)
		}()
	}
	signals := proc.Shutdown() // os.Interrupt first
	if sub == "chat" {
		signals = signals[1:] // the conversation loop cancels turns on Ctrl-C itself
	}
	// The first Ctrl-C cancels (the turn, the server); once it has, the
	// default handling is back, so a second one quits at once.
	ctx, stop := notifyContext(context.Background(), signals...)
	m := &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, sandboxSet: sandboxSet}
	var lf *logFile
	if len(os.Args) > 1 && (os.Args[1] == "acp" || os.Args[1] == "lsp") {
		lf = newLogFile(os.Getenv, os.Args[1], os.Stderr)
		// A server's stderr and log file are logs through and through:
		// every line written there, not only slog's, passes the redactor.
		m.Stderr, m.LogFile = m.redacted(os.Stderr), m.redacted(lf)
	}
	code := m.Run(ctx, os.Args[1:])
	stop()
	if lf != nil {
		lf.Close()
	}
	if sandboxSet != nil {
		<-sandboxSet // a command that built no agent did not wait for it
	}
	stopHeap()
	stopProfile()
	stopFloor()
	os.Exit(code)
}

// profiles writes the process's CPU profile to cpu and its execution trace
// to trace until the returned stop is called, so a benchmark driving the
// real binary over stdio (bench/editorbench) can see where tandem spends
// its time, and where it waits (`go tool trace -pprof=sync|syscall`); ""
// writes nothing.
func profiles(cpu, trace string) (stop func()) {
	stopCPU := startProfile("TANDEM_CPUPROFILE", cpu, pprof.StartCPUProfile, pprof.StopCPUProfile)
	stopTrace := startProfile("TANDEM_TRACE", trace, rtrace.Start, rtrace.Stop)
	return func() {
		stopCPU()
		stopTrace()
	}
}

func startProfile(name, path string, start func(io.Writer) error, end func()) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tandem: %s: %v\n", name, err)
		return func() {}
	}
	return func() {
		end()
		f.Close()
	}
}

// Main is the testable entry point: everything a subcommand touches of the
// process comes through it.
type Main struct {
	Stdin  io.Reader
	Stdout io.Writer // the protocol channel for acp and lsp
	Stderr io.Writer // logs and human messages
	Getenv func(string) string
	// LogFile, when set, gets a copy of every log line
	// ($TANDEM_HOME/logs/acp.log for the servers editors start).
	LogFile io.Writer

	// sandboxSet, when not nil, is closed once configureSandbox has put
	// the sandbox settings in the environment, which commands and plugins
	// the agent starts read: an agent is built only after.
	sandboxSet <-chan struct{}

	redactOnce sync.Once
	red        *redact.Redactor // the process's one redactor (see redactor)
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
		"chat":         {"talk with the agent in this directory, turn after turn (also: tandem alone)", runChat},
		"defs":         {"list code definitions of files or trees", runDefs},
		"map":          {"print a tree's repository map: files ranked by references, with their key definitions", runMap},
		"instructions": {"print the workspace instructions a new session would send", runInstructions},
		"sessions":     {"list, show, export, delete, prune and rename stored sessions", runSessions},
		"doctor":       {"check the setup and say how to fix what is wrong", runDoctor},
		"plugin":       {"list, enable, disable, install, remove and pack plugins", runPlugin},
		"login":        {"store a provider API key in $TANDEM_HOME/credentials.json (mode 0600)", runLogin},
		"version":      {"print the version and commit", runVersion},
	}
}

// errUsage marks an error already explained by a usage message.
var errUsage = errors.New("usage")

// Run executes one subcommand and returns the process exit code.
func (m *Main) Run(ctx context.Context, args []string) int {
	cmds := commands()
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		fmt.Fprint(m.Stdout, currentBuild().String())
		return 0
	}
	if len(args) == 0 && isTerminal(m.Stdin) && isTerminal(m.Stderr) {
		args = []string{"chat"} // `tandem` on a terminal opens a conversation
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		m.usage(cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "help" && len(args) > 1 {
		args = []string{args[1], "--help"} // tandem help run
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
