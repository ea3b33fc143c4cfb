package treesitter

import (
	"errors"
	"fmt"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// MaxSource is the largest file Definitions parses. Generated files of a
// few MB (Go's ssa/opGen.go at 3 MB, TypeScript's checker.ts) are still
// code people look things up in; a 3 MB file parses in about half a
// second and 80 MB. Past 4 MiB a file is nearly always data, and two
// such parses at once would double the index's peak memory.
const MaxSource = 4 << 20

// ErrTooLarge reports a source bigger than MaxSource.
var ErrTooLarge = errors.New("file too large to index")

// ErrTimeout reports a parse stopped by its time budget (parseBudget): a
// pathological input or a grammar stuck in a loop must not stall a worker.
var ErrTimeout = errors.New("parsing took too long")

// parseBudget bounds the parse of n bytes. Parsing runs at some 15 MB/s on
// one core (a 1 MiB file in about 70 ms), so the budget leaves about fifty
// times that, for slow grammars and busy machines. It grows with the size
// because a fixed bound loose enough for a large file lets a small
// pathological one run long: the fuzzer found 131 bytes that kept the Swift
// grammar busy until a fixed 20 s limit stopped it.
func parseBudget(n int) time.Duration {
	return 250*time.Millisecond + time.Duration(n)*5*time.Microsecond
}

// Parser extracts definitions. It keeps one tree-sitter parser per language
// and must be used by one goroutine at a time.
//
// Cancellation: parsing uses the bindings' plain Parse, not ParseCtx, since
// ParseCtx with a cancellable context starts a goroutine per parse. The size
// guard keeps a normal parse well under a second, tree-sitter's own timeout
// (parseBudget) stops a runaway one, and callers check their context
// between files.
//
// Memory: tree-sitter allocates with malloc, and glibc gives each OS thread
// its own arena. A goroutine that hops threads spreads trees over many
// arenas, where freed memory sits unreturned. A worker parsing many files
// should hold its thread (runtime.LockOSThread) so it reuses one arena, and
// call ReleaseMemory when the batch is done. Measured on the Go tree with
// two workers: peak RSS 76 MB instead of 137 MB, and 5-10% less CPU than
// trimming the heap after every large file.
type Parser struct {
	parsers map[*Language]*sitter.Parser
	cur     cursor
	buf     []node
	spans   []uint32            // identifier byte ranges of the file being read
	seen    map[string]struct{} // names already in this file's references
}

// NewParser returns a Parser; Close releases its C memory.
func NewParser() *Parser {
	return &Parser{parsers: make(map[*Language]*sitter.Parser)}
}

// Close frees the underlying parsers.
func (p *Parser) Close() {
	for _, ps := range p.parsers {
		ps.Close()
	}
	p.parsers = nil
	p.cur.close()
}

// Definitions parses src as lang and returns what it defines, in source
// order. Syntax errors do not fail: tree-sitter recovers and the definitions
// it could still recognise are returned.
func (p *Parser) Definitions(lang *Language, src []byte) (defs []Definition, err error) {
	defs, _, err = p.parse(lang, src, false)
	return defs, err
}

// DefinitionsAndRefs is Definitions plus the file's references: the
// distinct names (two bytes or longer, sorted) of every identifier in the
// file, read from the same tree. Which of them name a definition elsewhere
// is for the caller to decide.
func (p *Parser) DefinitionsAndRefs(lang *Language, src []byte) (defs []Definition, refs []string, err error) {
	return p.parse(lang, src, true)
}

func (p *Parser) parse(lang *Language, src []byte, withRefs bool) (defs []Definition, refs []string, err error) {
	if len(src) > MaxSource {
		return nil, nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, len(src), MaxSource)
	}
	lang = lang.forSource(src)
	g, tab, sp, err := lang.load()
	if err != nil {
		return nil, nil, err
	}
	ps := p.parser(lang, g)
	budget := parseBudget(len(src))
	ps.SetOperationLimit(int(budget / time.Microsecond))
	parsed := src
	if sp.parseAs != nil {
		parsed = sp.parseAs(src)
	}
	tree := ps.Parse(nil, parsed)
	if tree == nil {
		// A halted parse would resume on the next call unless reset.
		ps.Reset()
		return nil, nil, fmt.Errorf("%w (limit %v for %d bytes)", ErrTimeout, budget, len(src))
	}
	// Closing at once, rather than leaving it to the finalizer, roughly
	// halves peak memory when indexing a large tree.
	defer tree.Close()
	root := rootNode(tree.RootNode())
	w := walker{tab: tab, src: src, cur: &p.cur, buf: p.buf[:0]}
	w.children(root, scope{})
	p.buf = w.buf
	if sp.post != nil {
		w.defs = sp.post(w.defs)
	}
	if withRefs {
		refs = p.refs(w.tab, root, src)
	}
	return w.defs, refs, nil
}

func (p *Parser) parser(lang *Language, g *sitter.Language) *sitter.Parser {
	ps := p.parsers[lang]
	if ps == nil {
		ps = sitter.NewParser()
		ps.SetLanguage(g)
		p.parsers[lang] = ps
	}
	return ps
}

// Definitions parses one file with a throwaway parser; for many files, keep
// a Parser.
func Definitions(lang *Language, src []byte) ([]Definition, error) {
	p := NewParser()
	defer p.Close()
	return p.Definitions(lang, src)
}
