package main

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// outsideRemoval reports the first target of a recursive, forced rm in
// command that lies outside root. A command that does not parse is
// judged word by word, which errs on the side of refusing.
func outsideRemoval(command, root string) (string, bool) {
	var calls [][]string
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		calls = [][]string{strings.Fields(command)}
	} else {
		syntax.Walk(f, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok {
				var words []string
				for _, w := range c.Args {
					words = append(words, literal(w))
				}
				calls = append(calls, words)
			}
			return true
		})
	}
	for _, words := range calls {
		if t, bad := badRm(words, root); bad {
			return t, true
		}
	}
	return "", false
}

// literal is a word as written, quotes removed; parts that expand at run
// time ($HOME, $(...)) stay as written, which puts them outside.
func literal(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteString("$")
				}
			}
		default:
			b.WriteString("$")
		}
	}
	return b.String()
}

func badRm(words []string, root string) (string, bool) {
	for len(words) > 0 && (words[0] == "sudo" || words[0] == "command" || words[0] == "env") {
		words = words[1:]
	}
	if len(words) == 0 || filepath.Base(words[0]) != "rm" {
		return "", false
	}
	var recursive, force bool
	var targets []string
	for _, w := range words[1:] {
		switch {
		case w == "--recursive":
			recursive = true
		case w == "--force":
			force = true
		case strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--"):
			recursive = recursive || strings.ContainsAny(w, "rR")
			force = force || strings.Contains(w, "f")
		default:
			targets = append(targets, w)
		}
	}
	if !recursive || !force {
		return "", false
	}
	for _, t := range targets {
		if !inside(t, root) {
			return t, true
		}
	}
	return "", false
}

// inside reports whether target, as the shell in root would see it, is
// strictly inside root (root itself counts as outside: removing the
// whole workspace is not a cleanup).
func inside(target, root string) bool {
	if strings.ContainsAny(target, "$~*?[") {
		return false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	rel, err := filepath.Rel(root, filepath.Clean(target))
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../")
}
