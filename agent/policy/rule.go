package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Rule names the calls it covers as Tool(specifier):
//
//	run_command(go test:*)     commands starting with the words "go test"
//	run_command(npm run lint)  exactly that command, no further arguments
//	edit_file(src/**)          edits to files under src/, relative to the root
//	write_file(docs/*.md)      one directory's Markdown files
//	mcp__srv__tool             one MCP server's tool
//	run_command                every use of the tool
//
// A command rule matches one simple command word by word, after quote
// removal; a compound command needs every part matched (see Rules). A path
// rule is a gitignore-style glob on the slash-separated path: relative to
// the session root, or absolute when it starts with / (or //), or under the
// user's home when it starts with ~/. * stays within a directory, ** spans
// any number of them.
type Rule struct {
	Tool      string
	Specifier string // empty: every use of Tool
	// Source says where the rule came from (a settings file, "this
	// session"); reasons and /permissions name it. It takes no part in
	// matching.
	Source string
}

// String is the rule as users write it.
func (r Rule) String() string {
	if r.Specifier == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// commandPattern splits a command rule's specifier into the words it
// matches, and whether further words are allowed (a trailing ":*").
func (r Rule) commandPattern() (words []string, prefix bool, err error) {
	spec, prefix := strings.CutSuffix(r.Specifier, ":*")
	c := parseCommand(spec)
	if c.opaque != "" || len(c.simple) != 1 {
		return nil, false, errors.New("a command rule names one plain command, as in go test:*")
	}
	for _, w := range c.simple[0] {
		if !w.exact {
			return nil, false, fmt.Errorf("the word %q would be expanded by the shell; quote it", w.text)
		}
		words = append(words, w.text)
	}
	return words, prefix, nil
}

// matchesCommand reports whether r covers one simple command.
func (r Rule) matchesCommand(words []word) bool {
	if r.Specifier == "" {
		return true
	}
	pattern, prefix, err := r.commandPattern()
	if err != nil || len(words) < len(pattern) || !prefix && len(words) != len(pattern) {
		return false
	}
	for i, p := range pattern {
		if !words[i].exact || words[i].text != p {
			return false
		}
	}
	return true
}

// Rules are allow, ask and deny lists. Deny beats ask, ask beats allow.
// The zero value holds no rules. Rules is a plain value with no lock: its
// owner (the session) serializes access.
type Rules struct {
	Allow, Ask, Deny []Rule
}

// Add appends rules to the list for d (Allow, Ask or Deny), skipping ones
// already there from the same source.
func (rs *Rules) Add(d Decision, rules ...Rule) {
	list := rs.list(d)
	for _, r := range rules {
		if !slices.Contains(*list, r) {
			*list = append(*list, r)
		}
	}
}

// Merge returns rs with the lists of more appended: the rules of several
// sources in force together. Order does not decide anything (deny beats ask
// beats allow whatever the order); it only decides which rule a reason names.
func (rs Rules) Merge(more ...Rules) Rules {
	out := Rules{Allow: slices.Clone(rs.Allow), Ask: slices.Clone(rs.Ask), Deny: slices.Clone(rs.Deny)}
	for _, m := range more {
		out.Add(Allow, m.Allow...)
		out.Add(Ask, m.Ask...)
		out.Add(Deny, m.Deny...)
	}
	return out
}

// Remove drops every rule equal to r (source included) from the list for d,
// and reports whether there was one.
func (rs *Rules) Remove(d Decision, r Rule) bool {
	list := rs.list(d)
	n := len(*list)
	*list = slices.DeleteFunc(*list, func(x Rule) bool { return x == r })
	return len(*list) != n
}

// List is the list for d.
func (rs Rules) List(d Decision) []Rule { return *rs.list(d) }

func (rs *Rules) list(d Decision) *[]Rule {
	switch d {
	case Allow:
		return &rs.Allow
	case Deny:
		return &rs.Deny
	}
	return &rs.Ask
}
