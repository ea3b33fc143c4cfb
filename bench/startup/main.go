// Command startup measures process start-up, median of -n runs each, and
// prints each command's time with its ratio to the first one. It is the
// timing half of bench/startup.sh.
//
// A command is timed from spawn to exit; one written "acp:CMD" is timed
// from spawn to the first line it answers to an ACP initialize request
// (the first exchange an editor waits for), after which its stdin is
// closed and it must exit. One written "lsp:CMD" is timed the same way for
// LSP's initialize, in Content-Length frames, and is then sent shutdown and
// exit. Runs go round-robin over the commands, so a
// change in the machine's load during the run falls on all of them alike.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// initialize is the request an editor sends first.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,` +
	`"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true},` +
	`"clientInfo":{"name":"startup","version":"1"}}}` + "\n"

// lspInitialize is the body of the request an LSP client sends first,
// for a workspace folder (filled in) and with the capabilities that decide
// the answer (position encodings).
const lspInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,` +
	`"rootUri":%[1]q,"workspaceFolders":[{"uri":%[1]q,"name":"w"}],` +
	`"capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]},"workspace":{"applyEdit":true}}}}`

// lspEnd is what an LSP client sends when it is done: shutdown, then exit.
const lspEnd = `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`

func main() {
	n := flag.Int("n", 50, "runs per command")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: startup [-n N] 'cmd args' 'acp:cmd args' 'lsp:cmd args' ...")
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
	proto, argv := parse(spec)
	l := strings.Join(append([]string{filepath.Base(argv[0])}, argv[1:]...), " ")
	if proto != "" {
		l += " → initialize"
	}
	return l
}

// parse splits spec into its protocol ("acp", "lsp" or none) and argv.
func parse(spec string) (proto string, argv []string) {
	for _, p := range []string{"acp", "lsp"} {
		if rest, ok := strings.CutPrefix(spec, p+":"); ok {
			return p, strings.Fields(rest)
		}
	}
	return "", strings.Fields(spec)
}

func timeOne(spec string) (time.Duration, error) {
	proto, argv := parse(spec)
	cmd := exec.Command(argv[0], argv[1:]...)
	if proto == "" {
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
	var line string
	if proto == "lsp" {
		_, _ = io.WriteString(in, frame(fmt.Sprintf(lspInitialize, workspaceURI())))
		line, err = readFrame(bufio.NewReader(out))
	} else {
		_, _ = io.WriteString(in, initialize)
		line, err = bufio.NewReader(out).ReadString('\n')
	}
	d := time.Since(start)
	if proto == "lsp" {
		_, _ = io.WriteString(in, frame(lspEnd)+frame(`{"jsonrpc":"2.0","method":"exit"}`))
	}
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

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// readFrame reads one Content-Length frame's body.
func readFrame(r *bufio.Reader) (string, error) {
	n := -1
	for {
		h, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		h = strings.TrimSpace(h)
		if h == "" {
			break
		}
		if v, ok := strings.CutPrefix(h, "Content-Length: "); ok {
			if n, err = strconv.Atoi(v); err != nil {
				return "", fmt.Errorf("bad header %q", h)
			}
		}
	}
	if n < 0 {
		return "", errors.New("a frame without Content-Length")
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return string(body), err
}

// workspaceURI is the directory the benchmark runs in, as LSP's
// workspace folder.
func workspaceURI() string {
	wd, _ := os.Getwd()
	return "file://" + wd
}
