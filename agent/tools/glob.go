package tools

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// fileGlob matches root-relative paths the way a .gitignore line would: a
// pattern without a slash matches a name at any depth, `**` spans
// directories. Braces `{a,b}` expand to alternatives first, since models
// write them out of habit.
type fileGlob struct {
	patterns []gitignore.Pattern
}

// maxGlobAlternatives bounds brace expansion ({a,b}{c,d}... multiplies).
const maxGlobAlternatives = 64

func compileGlob(glob string) (*fileGlob, error) {
	if glob == "" {
		return nil, nil
	}
	alts, err := expandBraces(glob)
	if err != nil {
		return nil, fmt.Errorf("invalid glob %q: %v", glob, err)
	}
	g := &fileGlob{}
	for _, a := range alts {
		a = strings.TrimPrefix(a, "./")
		g.patterns = append(g.patterns, gitignore.ParsePattern(a, nil))
	}
	return g, nil
}

func (g *fileGlob) match(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, p := range g.patterns {
		if p.Match(parts, false) == gitignore.Exclude {
			return true
		}
	}
	return false
}

// expandBraces turns "a.{go,ts}" into ["a.go", "a.ts"]; nested braces work.
func expandBraces(s string) ([]string, error) {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		if strings.IndexByte(s, '}') >= 0 {
			return nil, fmt.Errorf("unbalanced }")
		}
		return []string{s}, nil
	}
	depth, end := 0, -1
	var commas []int
	for i := open; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("unbalanced {")
	}
	var options []string
	start := open + 1
	for _, c := range append(commas, end) {
		options = append(options, s[start:c])
		start = c + 1
	}
	var out []string
	for _, opt := range options {
		rest, err := expandBraces(s[:open] + opt + s[end+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
		if len(out) > maxGlobAlternatives {
			return nil, fmt.Errorf("more than %d alternatives", maxGlobAlternatives)
		}
	}
	return out, nil
}
