// Command completionbench measures tandem's inline completions as an
// editor meets them: it spawns the real `tandem lsp` over stdio, against
// a fake FIM server (agent/llm/llmtest's FIMServer, Ollama wire) running
// in this process, and prints each goal of issue 33 with met / NOT MET:
//
//   - latency: on a -lines file with a warm code index, tandem's own time
//     per completion, request in → model request out and the model's
//     last token → answer out, p50 and p99 (goals 2 ms and 10 ms), beside
//     what a request straight to the fake costs the bench;
//   - typing: -keystrokes at -rate a second, each with an automatic
//     request not awaited before the next key: at most one model request
//     in flight, none for a keystroke that extends the cached suggestion;
//   - memory: what tandem's resident memory grows by for one completion
//     in each of -files open files (goal 5 MB).
//
// usage: completionbench -tandem PATH [flags]   (bench/completion.sh builds and runs it)
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
)

func main() {
	var c config
	flag.StringVar(&c.tandem, "tandem", "", "the tandem binary to measure")
	flag.IntVar(&c.lines, "lines", 5000, "lines of the file completed in")
	flag.IntVar(&c.completions, "completions", 500, "completions of the latency measurement")
	flag.IntVar(&c.keystrokes, "keystrokes", 60, "keystrokes of the typing scenario")
	flag.IntVar(&c.rate, "rate", 15, "keystrokes a second")
	flag.IntVar(&c.files, "files", 50, "open files of the memory scenario")
	flag.Parse()
	if c.tandem == "" {
		fmt.Fprintln(os.Stderr, "completionbench: give -tandem PATH")
		os.Exit(2)
	}
	if err := run(context.Background(), c, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "completionbench:", err)
		os.Exit(1)
	}
}

// postJSON posts body to url.
func postJSON(url, body string) (*http.Response, error) {
	return http.Post(url, "application/json", strings.NewReader(body))
}
