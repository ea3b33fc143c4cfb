package completion

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/treesitter"
)

// Budget bounds each part of a prompt, in bytes (about four to a token).
// Each part has its own so that one large part (a long file above the
// cursor) never crowds out the others.
type Budget struct {
	Prefix, Suffix, Snippets, Signatures, Instructions int
	// Snippet caps one open file's snippet; OpenFiles the files used.
	Snippet, OpenFiles int
}

// DefaultBudget is about 1,500 tokens of prefix, 500 of suffix and 1,000
// of other context: enough for a small local model to see the code around
// the cursor and what it calls, small enough to answer in ~100 ms.
func DefaultBudget() Budget {
	return Budget{Prefix: 6000, Suffix: 2000, Snippets: 2400, Signatures: 1600, Instructions: 2000, Snippet: 800, OpenFiles: 6}
}

// Symbols is what the code index tells completions: the definitions of a
// file and those with a name. Paths are absolute.
type Symbols interface {
	Defs(abs string) []treesitter.Definition
	Find(name string, limit int) []Symbol
}

// Symbol is one definition and the file declaring it.
type Symbol struct {
	Path string // absolute
	treesitter.Definition
}

// OpenFile is another buffer the editor has open.
type OpenFile struct {
	Path string // absolute
	Text string
	// At is the byte offset in Text of its last edit (0 for one just
	// opened): its snippet is the lines around it.
	At int
}

// cutPrefix keeps the end of before within budget, starting at a line.
// The cut point moves in steps of a quarter of the budget, so that while
// the user types it stays where it was and the request's first bytes stay
// the same (a local server reuses its KV cache for them).
func cutPrefix(before string, budget int) string {
	if len(before) <= budget {
		return before
	}
	step := max(budget/4, 1)
	at := len(before) - budget
	at = (at + step - 1) / step * step
	if at >= len(before) {
		return ""
	}
	if i := strings.IndexByte(before[at:], '\n'); i >= 0 {
		return before[at+i+1:]
	}
	return before[at:]
}

// cutSuffix keeps the start of after within budget, ending at a line end.
func cutSuffix(after string, budget int) string {
	if len(after) <= budget {
		return after
	}
	s := after[:budget]
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}

// snippet is up to budget bytes of whole lines of text around the byte
// offset at. It looks only near at (an open buffer can be large and this
// runs on every keystroke).
func snippet(text string, at, budget int) string {
	at = min(max(at, 0), len(text))
	start := strings.LastIndexByte(text[:at], '\n') + 1
	if start == len(text) && start > 0 {
		start = strings.LastIndexByte(text[:start-1], '\n') + 1 // past the last line: that line
	}
	end := lineEnd(text, start)
	if end-start > budget {
		return ""
	}
	for grew := true; grew; {
		grew = false
		if end < len(text) {
			if next := lineEnd(text, end); next-start <= budget {
				end, grew = next, true
			}
		}
		if start > 0 {
			if prev := strings.LastIndexByte(text[:start-1], '\n') + 1; end-prev <= budget {
				start, grew = prev, true
			}
		}
	}
	return text[start:end]
}

// lineEnd is the offset after the line break of the line starting at
// start (the end of text for the last line).
func lineEnd(text string, start int) int {
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		return start + i + 1
	}
	return len(text)
}

// identifiers returns the names in text worth looking up, the last first,
// each once.
func identifiers(text string) []string {
	var out []string
	seen := map[string]bool{}
	i := len(text)
	for i > 0 {
		j := i
		for j > 0 && isIdent(text[j-1]) {
			j--
		}
		if j < i {
			w := text[j:i]
			if len(w) >= 3 && !isDigit(w[0]) && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
			i = j
			continue
		}
		i--
	}
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// sigLine is one signature chosen for the prompt.
type sigLine struct {
	path string // relative to the root, slash-separated
	line int
	text string
}

// signatures picks the definitions the code near the cursor names and the
// document's own definitions outside the prefix and suffix windows,
// nearest first, within budget; then orders them by file and line, so the
// same choice writes the same bytes.
func signatures(c *build) []Chunk {
	if c.req.Symbols == nil || c.budget.Signatures <= 0 {
		return nil
	}
	var picked []sigLine
	size := 0
	seen := map[string]bool{}
	add := func(abs string, d treesitter.Definition) bool {
		key := abs + "\x00" + d.Signature
		if d.Signature == "" || seen[key] || !c.allowed(abs) {
			return true
		}
		if size+len(d.Signature)+1 > c.budget.Signatures {
			return false
		}
		seen[key] = true
		size += len(d.Signature) + 1
		picked = append(picked, sigLine{path: c.rel(abs), line: d.Start, text: d.Signature})
		return true
	}
	near := c.prefix[max(0, len(c.prefix)-400):]
	if i := strings.IndexByte(c.suffix, '\n'); i >= 0 {
		near += c.suffix[:i]
	}
	full := false
	for _, name := range identifiers(near) {
		for _, s := range c.req.Symbols.Find(name, 2) {
			if s.Path == c.req.Doc && s.Start >= c.firstLine && s.Start <= c.lastLine {
				continue // in the window already
			}
			if full = !add(s.Path, s.Definition); full {
				break
			}
		}
		if full {
			break
		}
	}
	if !full {
		defs := slices.Clone(c.req.Symbols.Defs(c.req.Doc))
		cur := c.cursorLine + 1
		slices.SortStableFunc(defs, func(a, b treesitter.Definition) int { return absInt(a.Start-cur) - absInt(b.Start-cur) })
		for _, d := range defs {
			if d.Start >= c.firstLine && d.Start <= c.lastLine {
				continue
			}
			if !add(c.req.Doc, d) {
				break
			}
		}
	}
	slices.SortFunc(picked, func(a, b sigLine) int {
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		return a.line - b.line
	})
	var out []Chunk
	for _, s := range picked {
		if n := len(out); n > 0 && out[n-1].Path == s.path {
			out[n-1].Text += s.text + "\n"
			continue
		}
		out = append(out, Chunk{Path: s.path, Text: s.text + "\n"})
	}
	return out
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// snippets takes a window around the last edit of the most recently
// edited other open files, within budget, ordered by path.
func snippets(c *build) []Chunk {
	var out []Chunk
	size := 0
	for _, f := range c.req.Open {
		if len(out) >= c.budget.OpenFiles || f.Path == c.req.Doc || !c.allowed(f.Path) {
			continue
		}
		s := snippet(f.Text, f.At, min(c.budget.Snippet, c.budget.Snippets-size))
		if strings.TrimSpace(s) == "" {
			continue
		}
		size += len(s)
		out = append(out, Chunk{Path: c.rel(f.Path), Text: s})
	}
	slices.SortFunc(out, func(a, b Chunk) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// build is one prompt being assembled.
type build struct {
	req                 *Request
	budget              Budget
	prefix, suffix      string
	cursorLine          int // 1-based lines of the window and the cursor
	firstLine, lastLine int
	allowed             func(abs string) bool
}

func (c *build) rel(abs string) string {
	if c.req.Root != "" {
		if r, err := filepath.Rel(c.req.Root, abs); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.Base(abs)
}

// assemble builds the prompt of req: the cursor's windows, then the
// context parts, each within its budget.
func assemble(req *Request, b Budget, allowed func(string) bool, instructions Chunk, maxTokens int) *Prompt {
	c := &build{req: req, budget: b, allowed: allowed}
	c.prefix = cutPrefix(req.Before, b.Prefix)
	c.suffix = cutSuffix(req.After, b.Suffix)
	c.cursorLine = strings.Count(req.Before, "\n")
	c.firstLine = c.cursorLine - strings.Count(c.prefix, "\n") + 1
	c.lastLine = c.cursorLine + strings.Count(c.suffix, "\n") + 1
	p := &Prompt{Path: c.rel(req.Doc), Prefix: c.prefix, Suffix: c.suffix, MaxTokens: maxTokens}
	if req.Root != "" {
		p.Repo = filepath.Base(req.Root)
	}
	if instructions.Text != "" {
		p.Context = append(p.Context, instructions)
	}
	p.Context = append(p.Context, snippets(c)...)
	p.Context = append(p.Context, signatures(c)...)
	return p
}
