package policy

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// command is a run_command line broken into the simple commands it runs.
// A rule never sees the line as text: it matches simple commands word by
// word, so `go test ./... && rm -rf x` is two commands, not one that
// happens to start with "go test".
type command struct {
	// simple lists every simple command in the line, including those inside
	// $(…), backticks, <(…), subshells and blocks, and — for deny rules —
	// inside constructs that make the line opaque.
	simple [][]word
	// opaque says why no grant can cover the line (a redirection to a
	// file, a variable assignment, a loop, a parse error...); empty when the
	// line is nothing but plain simple commands joined by ;, &&, || and |.
	opaque string
}

// word is one word of a simple command.
type word struct {
	text string
	// exact is true when text is the word's value after quote removal and
	// the shell will not expand it further; only exact words match a rule.
	exact bool
}

// parseCommand parses line as bash does (a superset of the sh that runs
// it); anything the walk below does not know makes the line opaque.
func parseCommand(line string) command {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return command{opaque: "tandem cannot parse it as a shell command"}
	}
	var c command
	c.stmts(f.Stmts)
	return c
}

func (c *command) refuse(why string) {
	if c.opaque == "" {
		c.opaque = why
	}
}

func (c *command) stmts(ss []*syntax.Stmt) {
	for _, s := range ss {
		c.stmt(s)
	}
}

func (c *command) stmt(s *syntax.Stmt) {
	if s.Background || s.Coprocess || s.Disown {
		c.refuse("it leaves a command running in the background")
	}
	for _, r := range s.Redirs {
		c.redirect(r)
	}
	switch cmd := s.Cmd.(type) {
	case nil:
		// Only redirections, such as `> file`; redirect has judged them.
	case *syntax.CallExpr:
		c.call(cmd)
	case *syntax.BinaryCmd: // &&, ||, |, |&
		c.stmt(cmd.X)
		c.stmt(cmd.Y)
	case *syntax.Subshell:
		c.stmts(cmd.Stmts)
	case *syntax.Block:
		c.stmts(cmd.Stmts)
	default:
		c.refuse(fmt.Sprintf("it uses shell syntax (%s) that tandem does not break into plain commands", syntaxName(cmd)))
		c.collect(cmd)
	}
}

func (c *command) call(ce *syntax.CallExpr) {
	if len(ce.Assigns) > 0 {
		// A=1 cmd, or PATH=… alone: either changes what a later word means.
		c.refuse("it sets shell variables")
		for _, a := range ce.Assigns {
			c.collect(a)
		}
	}
	if len(ce.Args) == 0 {
		return
	}
	words := make([]word, len(ce.Args))
	for i, w := range ce.Args {
		words[i] = c.word(w)
	}
	c.simple = append(c.simple, words)
}

// word checks one word's parts, descends into the commands it substitutes
// and returns its exact value when it has one.
func (c *command) word(w *syntax.Word) word {
	for _, part := range w.Parts {
		c.wordPart(part)
	}
	text, ok := exactValue(w)
	return word{text: text, exact: ok}
}

func (c *command) wordPart(part syntax.WordPart) {
	switch p := part.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			c.wordPart(q)
		}
	case *syntax.ParamExp:
		if !plainParam(p) {
			c.refuse("it uses a parameter expansion that can assign or substitute")
			c.collect(p)
		}
	case *syntax.CmdSubst:
		if p.TempFile || p.ReplyVar {
			c.refuse("it uses a mksh command substitution")
		}
		c.stmts(p.Stmts)
	case *syntax.ProcSubst:
		c.stmts(p.Stmts)
	default:
		c.refuse(fmt.Sprintf("it uses shell syntax (%s) that tandem does not break into plain commands", syntaxName(p)))
		c.collect(p)
	}
}

// redirect accepts what cannot write a file: input redirections, here-
// documents, duplicating or closing descriptors, and output to /dev/null.
func (c *command) redirect(r *syntax.Redirect) {
	if r.N != nil && !isDigits(r.N.Value) {
		c.refuse("it redirects to a named descriptor")
	}
	if r.Hdoc != nil {
		c.word(r.Hdoc)
	}
	target := c.word(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	case syntax.DplIn, syntax.DplOut:
		// 2>&1 and >&- only; bash reads >&file as a redirection to a file.
		if target.exact && (isDigits(target.text) || target.text == "-") {
			return
		}
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
		if target.exact && target.text == "/dev/null" {
			return
		}
	}
	c.refuse("it redirects output to a file")
}

// collect records the simple commands under n without judging them: n has
// already made the line opaque, but a deny rule must still see them.
func (c *command) collect(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			words := make([]word, len(ce.Args))
			for i, w := range ce.Args {
				text, exact := exactValue(w)
				words[i] = word{text: text, exact: exact}
			}
			c.simple = append(c.simple, words)
		}
		return true
	})
}

// exactValue is w's value after quote removal, when the shell will not
// change it further: plain text, single quotes, and double quotes holding
// plain text. Backslashes, unquoted glob or brace characters and any
// expansion make the value unknown here.
func exactValue(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\*?[{`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(lit.Value, `\`) {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// plainParam reports whether p is $name or ${name} (or ${#name}): a value
// read, with no default assigned, no substitution and no indirection.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Width && !p.IsSet &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 &&
		p.Slice == nil && p.Repl == nil && p.Names == 0 && p.Exp == nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// syntaxName names a construct for a message: "ForClause" becomes "for clause".
func syntaxName(n syntax.Node) string {
	name := strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToLower(b.String())
}
