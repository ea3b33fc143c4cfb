// Command startup measures process start-up, median of -n runs each, and
// prints each command's time with its ratio to the first one. It is the
// timing half of bench/startup.sh.
//
// A command is timed from spawn to exit; one written "acp:CMD" is timed
// from spawn to the first line it answers to an ACP initialize request
// (the first exchange an editor waits for), after which its stdin is
// closed and it must exit. Runs go round-robin over the commands, so a
// change in the machine's load during the run falls on all of them alike.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// initialize is the request an editor sends first.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,` +
	`"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true},` +
	`"clientInfo":{"name":"startup","version":"1"}}}` + "\n"

func main() {
	n := flag.Int("n", 50, "runs per command")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: startup [-n N] 'cmd args' 'acp:cmd args' ...")
		os.Exit(2)
	}
	specs := flag.Args()
	runs := make([][]time.Duration, len(specs))
	for range *n {
		for i, spec := range specs {
			d, err := timeOne(spec)
			if err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n", spec, err)
				os.Exit(1)
			}
			runs[i] = append(runs[i], d)
		}
	}
	var first time.Duration
	for i, spec := range specs {
		slices.Sort(runs[i])
		med := runs[i][len(runs[i])/2]
		if i == 0 {
			first = med
		}
		fmt.Printf("%-34s %8.2f ms  %5.2fx\n", label(spec), float64(med.Microseconds())/1000, float64(med)/float64(first))
	}
}

// label is a spec with its program's directory left out.
func label(spec string) string {
	acp, argv := parse(spec)
	l := strings.Join(append([]string{filepath.Base(argv[0])}, argv[1:]...), " ")
	if acp {
		l += " → initialize"
	}
	return l
}

func parse(spec string) (acp bool, argv []string) {
	rest, acp := strings.CutPrefix(spec, "acp:")
	return acp, strings.Fields(rest)
}

func timeOne(spec string) (time.Duration, error) {
	acp, argv := parse(spec)
	cmd := exec.Command(argv[0], argv[1:]...)
	if !acp {
		start := time.Now()
		err := cmd.Run()
		return time.Since(start), err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	_, _ = io.WriteString(in, initialize)
	line, err := bufio.NewReader(out).ReadString('\n')
	d := time.Since(start)
	in.Close() // the end of the editor: the agent exits
	_, _ = io.Copy(io.Discard, out)
	if werr := cmd.Wait(); err == nil {
		err = werr
	}
	if err == nil && !strings.Contains(line, `"result"`) {
		err = fmt.Errorf("the first line is not a result: %q", line)
	}
	return d, err
}
