// Command editorbench measures tandem as an editor meets it: it spawns the
// real `tandem acp` binary over stdio, against a fake model server
// (agent/llm/llmtest, OpenAI and Anthropic wire) running in this process,
// drives it as an editor does (initialize, session/new, prompts) and
// reports the whole tandem process's CPU (its rusage: user + system) and
// wall time. Beside it, in the same run and interleaved round by round, it
// measures a floor (floor.go: a minimal Go program, built here as tandem
// is, that reads the same SSE from the same fake and writes the same
// session/update notifications over stdio) and the fake alone.
//
// Scenarios, each printed with its goals as ratios and met / NOT MET:
//   - stream: one prompt answered with -chunks text chunks;
//   - toolstep: a turn of -steps read_file / edit_file calls on one file;
//   - latency: the first chunk's arrival at the editor after the fake wrote it;
//   - turns: the cost of a turn at -turns against one at turn 10;
//   - startup: spawn to the initialize answer, against the floor's.
//
// CPU of a scenario is the process's rusage at exit less that of a process
// that only opened the session (medians over -rounds). Several -tandem
// binaries (NAME=PATH, say main's build beside this one) are measured in
// the same rounds; goals are judged for each.
//
// usage: editorbench -tandem now=./tandem [-tandem before=/tmp/main/tandem] [flags]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var c config
	var tandems multi
	flag.Var(&tandems, "tandem", "NAME=PATH of a tandem binary to measure (repeatable; the first is judged against the later ones' latency)")
	flag.IntVar(&c.chunks, "chunks", 20000, "text chunks of the streamed reply")
	flag.IntVar(&c.steps, "steps", 30, "tool calls of the tool loop (read_file and edit_file in turn)")
	flag.IntVar(&c.turns, "turns", 500, "turns of the long session")
	flag.IntVar(&c.rounds, "rounds", 3, "rounds of each measurement (medians are shown)")
	flag.IntVar(&c.startups, "startups", 20, "spawn → initialize runs per program")
	flag.IntVar(&c.latencies, "latencies", 20, "prompts of the first-chunk measurement")
	wires := flag.String("wires", "openai,anthropic", "wire formats of the stream and tool loop")
	flag.StringVar(&c.profile, "profile", "", "directory for the first tandem's CPU profiles and execution traces (TANDEM_CPUPROFILE, TANDEM_TRACE) of stream and toolstep")
	scenarios := flag.String("scenarios", "", "scenarios to run, comma-separated (stream, toolstep, latency, turns, startup; default all)")
	flag.Parse()
	if *scenarios != "" {
		c.scenarios = map[string]bool{}
		for _, s := range strings.Split(*scenarios, ",") {
			c.scenarios[s] = true
		}
	}
	for _, t := range tandems {
		name, path, ok := strings.Cut(t, "=")
		if !ok {
			name, path = filepath.Base(t), t
		}
		c.tandems = append(c.tandems, program{name: name, argv: []string{path, "acp"}})
	}
	c.wires = strings.Split(*wires, ",")
	if len(c.tandems) == 0 {
		fmt.Fprintln(os.Stderr, "editorbench: give at least one -tandem NAME=PATH")
		os.Exit(2)
	}
	if err := run(context.Background(), c, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "editorbench:", err)
		os.Exit(1)
	}
}

// buildFloor builds the floor program into dir as README builds tandem
// (static, with cgo's C runtime), falling back to a plain build where the
// static C library is missing; it returns the binary and how it was built.
func buildFloor(dir string) (string, string, error) {
	src := filepath.Join(dir, "floor")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(floorSource), 0o644); err != nil {
		return "", "", err
	}
	bin := filepath.Join(dir, "floor-bin")
	build := func(args ...string) error {
		cmd := exec.Command("go", append(append([]string{"build"}, args...), "-o", bin, ".")...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("building the floor: %w\n%s", err, out)
		}
		return nil
	}
	if runtime.GOOS == "linux" {
		if err := build("-tags", "netgo,osusergo", "-ldflags", "-s -w -linkmode external -extldflags -static"); err == nil {
			return bin, "static, cgo, as tandem", nil
		}
	}
	if err := build(); err != nil {
		return "", "", err
	}
	return bin, "plain go build (no static C library here)", nil
}

// errSkip marks a measurement that could not be made; the rest goes on.
var errSkip = errors.New("skipped")

func writeln(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
