package custom

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// MaxIncludes bounds the @file includes of one expansion.
const MaxIncludes = 20

// ReadFunc reads a file a command names with @path. The caller resolves
// path against the session's roots and refuses one that leaves them; a
// file that does not exist wraps fs.ErrNotExist.
type ReadFunc func(ctx context.Context, path string) (string, error)

// Expand turns a command body and the text after its name into the prompt:
//
//   - $ARGUMENTS becomes the whole argument text, $1…$9 its words (quotes
//     group words; a missing one is empty). Substituted text is not
//     scanned again, so arguments cannot inject placeholders.
//   - When the body uses no placeholder and arguments were given, they
//     follow the body as "Arguments: …", so they are never dropped.
//   - Each @path in the result (at the start of a word) that names an
//     existing file is read with read and appended as a <file> block;
//     an @word that is no file is left as it is (it may be a mention), a
//     path read refuses is noted in the prompt.
//
// The only error is ctx's.
func Expand(ctx context.Context, body, args string, read ReadFunc) (string, error) {
	text, used := substitute(body, args)
	if !used && strings.TrimSpace(args) != "" {
		text = strings.TrimRight(text, "\n") + "\n\nArguments: " + args
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range mentions(text) {
		if seen[p] || len(seen) >= MaxIncludes {
			continue
		}
		seen[p] = true
		content, err := read(ctx, p)
		switch {
		case ctx.Err() != nil:
			return "", ctx.Err()
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			files = append(files, fmt.Sprintf("[@%s was not included: %v]", p, err))
		default:
			files = append(files, fmt.Sprintf("<file path=%q>\n%s\n</file>", p, content))
		}
	}
	if len(files) > 0 {
		text = strings.TrimRight(text, "\n") + "\n\n" + strings.Join(files, "\n\n")
	}
	return text, nil
}

// substitute replaces the placeholders in one pass and reports whether
// the body had any.
func substitute(body, args string) (string, bool) {
	words := Words(args)
	var b strings.Builder
	used := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		rest := body[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(args)
			i += len("ARGUMENTS")
			used = true
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9':
			if n := int(rest[0] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			i++
			used = true
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), used
}

// Words splits an argument line into words: whitespace separates, single
// or double quotes group (and are removed). An unclosed quote runs to the
// end of the line.
func Words(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// mentions finds @path words: an @ at the start of the text or after
// whitespace, up to the next whitespace, without trailing punctuation.
func mentions(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || (i > 0 && !isSpace(text[i-1])) {
			continue
		}
		j := i + 1
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		p := strings.TrimRight(text[i+1:j], ".,;:!?)]}>\"'`")
		if p != "" {
			out = append(out, p)
		}
		i = j
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
