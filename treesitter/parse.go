package treesitter

import (
	"errors"
	"fmt"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// MaxSource is the largest file Definitions parses. Bigger files are almost
// always generated tables; skipping them keeps one parse short enough that
// no per-parse cancellation is needed (see Parser).
const MaxSource = 1 << 20

// ErrTooLarge reports a source bigger than MaxSource.
var ErrTooLarge = errors.New("file too large to index")

// ErrTimeout reports a parse stopped by ParseTimeout: a pathological input
// or a grammar's scanner stuck in a loop must not stall a worker forever.
var ErrTimeout = errors.New("parsing took too long")

// ParseTimeout bounds one parse. A MaxSource file parses in about a second.
const ParseTimeout = 20 * time.Second

// Parser extracts definitions. It keeps one tree-sitter parser per language
// and must be used by one goroutine at a time.
//
// Cancellation: parsing uses the bindings' plain Parse, not ParseCtx, since
// ParseCtx with a cancellable context starts a goroutine per parse. The size
// guard keeps a normal parse under a second and tree-sitter's own timeout
// (ParseTimeout) stops a runaway one; callers check their context between
// files.
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
	if len(src) > MaxSource {
		return nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, len(src), MaxSource)
	}
	ps := p.parser(lang)
	tree := ps.Parse(nil, src)
	if tree == nil {
		// A halted parse would resume on the next call unless reset.
		ps.Reset()
		return nil, fmt.Errorf("%w (limit %v)", ErrTimeout, ParseTimeout)
	}
	// Closing at once, rather than leaving it to the finalizer, roughly
	// halves peak memory when indexing a large tree.
	defer tree.Close()
	w := walker{tab: lang.tables(), src: src, cur: &p.cur, buf: p.buf[:0]}
	w.children(rootNode(tree.RootNode()), scope{})
	p.buf = w.buf
	if lang.spec.post != nil {
		w.defs = lang.spec.post(w.defs)
	}
	return w.defs, nil
}

func (p *Parser) parser(lang *Language) *sitter.Parser {
	ps := p.parsers[lang]
	if ps == nil {
		ps = sitter.NewParser()
		ps.SetLanguage(lang.grammar())
		ps.SetOperationLimit(int(ParseTimeout / time.Microsecond))
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
