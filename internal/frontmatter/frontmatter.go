// Package frontmatter splits Markdown files that start with a YAML header
// (commands, skills, modes, agent definitions, plugin rules) into the
// header's fields and the body.
//
// The files come from repositories and plugins, so they are untrusted: the
// package never panics on bad input, refuses oversized headers, and reports
// YAML errors with the line they occur on. It knows nothing about what the
// fields mean; callers decode into their own structs.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxHeader bounds the YAML header. Real headers are a few hundred bytes;
// the cap keeps a hostile file from costing more than a glance.
const MaxHeader = 64 << 10

// ErrUnterminated reports a header that opens with "---" and never closes.
var ErrUnterminated = errors.New("frontmatter: header opened with --- is never closed")

// Split returns the YAML header (without its fences) and the body. A file
// with no header has a nil header and the whole text as body. A UTF-8 byte
// order mark and CRLF line endings are accepted.
func Split(data []byte) (header []byte, body string, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first, rest, _ := cutLine(data)
	if !isFence(first) {
		return nil, string(data), nil
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = cutLine(rest)
		if isFence(line) {
			return header, string(rest), nil
		}
		if len(header)+len(line) >= MaxHeader {
			return nil, "", fmt.Errorf("frontmatter: header longer than %d bytes", MaxHeader)
		}
		header = append(append(header, line...), '\n')
	}
	return nil, "", ErrUnterminated
}

// Parse decodes the header into v (a pointer to a struct with yaml tags)
// and returns the body. Fields v does not name are ignored: every agent
// that reads these formats adds its own keys. A file with no header leaves
// v untouched.
func Parse(data []byte, v any) (body string, err error) {
	header, body, err := Split(data)
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(header)) == 0 {
		return body, nil
	}
	if err := yaml.Unmarshal(header, v); err != nil {
		return "", fmt.Errorf("frontmatter: %w", err)
	}
	return body, nil
}

// cutLine returns the first line without its line ending, the rest, and
// whether a line ending was found.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	line, rest, ok = bytes.Cut(b, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest, ok
}

func isFence(line []byte) bool {
	return strings.TrimRight(string(line), " \t") == "---"
}

// List is a list of strings written either as a YAML sequence or as one
// comma-separated string ("Read, Grep, Bash(git diff:*)"), the two ways
// tool lists appear in the wild. Commas inside parentheses do not split.
type List []string

// UnmarshalYAML implements yaml.Unmarshaler.
func (l *List) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		var items []string
		if err := n.Decode(&items); err != nil {
			return err
		}
		*l = trimAll(items)
		return nil
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			*l = nil
			return nil
		}
		*l = trimAll(splitTopLevel(n.Value))
		return nil
	}
	return fmt.Errorf("line %d: want a list or a comma-separated string", n.Line)
}

func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func trimAll(items []string) []string {
	out := items[:0]
	for _, s := range items {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
