package main

import "strings"

// style colours text with ANSI SGR sequences, or not at all. Colour is on
// only when stderr is a terminal, NO_COLOR is unset (no-color.org) and
// TERM is not "dumb". Five colours do not justify a styling library: the
// terminal questions (is it a terminal, how wide) go to golang.org/x/term.
type style struct{ on bool }

func newStyle(tty bool, getenv func(string) string) style {
	return style{on: tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"}
}

func (s style) wrap(code, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) bold(t string) string  { return s.wrap("1", t) }
func (s style) dim(t string) string   { return s.wrap("2", t) }
func (s style) red(t string) string   { return s.wrap("31", t) }
func (s style) green(t string) string { return s.wrap("32", t) }
func (s style) cyan(t string) string  { return s.wrap("36", t) }

// maxDiffLines caps a diff on the terminal; a new 2,000-line file is not
// read in a prompt.
const maxDiffLines = 80

// diff colours a unified diff (edits.Unified) line by line and cuts it to
// maxDiffLines.
func (s style) diff(unified string) []string {
	lines := strings.Split(strings.TrimSuffix(unified, "\n"), "\n")
	var out []string
	for i, l := range lines {
		if i == maxDiffLines {
			out = append(out, s.dim("… "+plural(len(lines)-i, "more line")))
			break
		}
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			l = s.bold(l)
		case strings.HasPrefix(l, "@@"):
			l = s.cyan(l)
		case strings.HasPrefix(l, "+"):
			l = s.green(l)
		case strings.HasPrefix(l, "-"):
			l = s.red(l)
		}
		out = append(out, l)
	}
	return out
}
