package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// parseInterspersed parses flags wherever they appear on the line, so
// `tandem run fix the test --mode ask` runs in ask mode instead of sending
// "--mode ask" to the model. A lone "--" ends the flags: everything after
// it is an argument, even when it starts with a dash.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional, tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	return append(positional, tail...), nil
}

// listFlag collects a flag given several times (--allow A --allow B).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// isTerminal reports whether r or w is a terminal. /dev/null and pipes are
// not: a character device is not enough.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// maxStdinPrompt caps what a piped stdin may add to a prompt.
const maxStdinPrompt = 8 << 20

// promptText joins the prompt given as arguments with what stdin carries
// when it is not a terminal (`git diff | tandem run review this`): the
// arguments first, as the instruction, then the piped text.
func promptText(args []string, stdin io.Reader) (string, error) {
	text := strings.TrimSpace(strings.Join(args, " "))
	if stdin == nil || isTerminal(stdin) {
		return text, nil
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxStdinPrompt+1))
	if err != nil {
		return "", fmt.Errorf("reading the prompt from stdin: %w", err)
	}
	if len(b) > maxStdinPrompt {
		return "", fmt.Errorf("the prompt on stdin is larger than %d MiB", maxStdinPrompt>>20)
	}
	piped := strings.TrimRight(string(b), "\n")
	switch {
	case strings.TrimSpace(piped) == "":
		return text, nil
	case text == "":
		return piped, nil
	}
	return text + "\n\n" + piped, nil
}
