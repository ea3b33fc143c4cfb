package codeindex

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandemhq/tandem/internal/filelist"
	"github.com/tandemhq/tandem/treesitter"
)

// job is one file to (re)index.
type job struct {
	path string
	info fs.FileInfo
	old  *File // the previous entry, if any: same content means no re-parse
}

type parsed struct {
	*File
	old    *File
	reused bool // content hash matched old; definitions copied, not parsed
}

// trimAfter is how much source a batch parses before the C heap is handed
// back to the kernel when it ends: trees take some 40 times their source,
// while a trim walks every arena, a cost a one-file refresh need not pay.
const trimAfter = 1 << 20

// binarySniff is how much of a file is checked for NUL bytes.
const binarySniff = 8000

// parse indexes jobs with one worker per CPU, each owning its tree-sitter
// parsers. It returns when every worker has stopped.
func (ix *Index) parse(ctx context.Context, jobs []job) ([]parsed, error) {
	// Largest files first, so no worker is left alone with a big one at the end.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].info.Size() > jobs[order[b]].info.Size() })
	out := make([]parsed, len(jobs))
	// Workers take the next job from a counter, not a channel: a worker
	// holds its OS thread (below), and every channel hand-off between held
	// threads is a futex wake-up.
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(ix.opts.Workers, len(jobs))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One thread, one malloc arena for the worker's trees (see treesitter.Parser).
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			p := treesitter.NewParser()
			defer p.Close()
			for ctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= len(order) {
					return
				}
				t0 := time.Now()
				r := ix.indexFile(p, jobs[order[k]])
				r.cost = time.Since(t0)
				if r.reused && r.old != nil {
					r.cost = max(r.cost, r.old.cost) // a rebuild would parse it
				}
				out[order[k]] = r
			}
		}()
	}
	wg.Wait()
	var total int64
	for _, j := range jobs {
		total += j.info.Size()
	}
	if total >= trimAfter {
		treesitter.ReleaseMemory()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (ix *Index) indexFile(p *treesitter.Parser, j job) parsed {
	lang := treesitter.ForPath(j.path)
	f := &File{Path: j.path, Lang: lang.Name, Size: j.info.Size(), ModTime: filelist.TrustedTime(j.info.ModTime())}
	if f.Size > treesitter.MaxSource {
		f.Err = fmt.Sprintf("not indexed: %d bytes is over the %d byte limit", f.Size, treesitter.MaxSource)
		return parsed{File: f, old: j.old}
	}
	src, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(j.path)))
	if err != nil {
		f.Err = "not indexed: " + errors.Unwrap(err).Error()
		return parsed{File: f, old: j.old}
	}
	f.Size = int64(len(src))
	sum := sha256.Sum256(src)
	copy(f.Hash[:], sum[:])
	f.Lines = countLines(src)
	if bytes.IndexByte(src[:min(len(src), binarySniff)], 0) >= 0 {
		f.Err = "not indexed: binary content"
		return parsed{File: f, old: j.old}
	}
	withRefs := ix.refs.Load()
	if j.old != nil && j.old.Hash == f.Hash && j.old.Err == "" && (j.old.HasRefs || !withRefs) {
		f.Defs = j.old.Defs
		f.Refs, f.HasRefs = j.old.Refs, j.old.HasRefs
		return parsed{File: f, old: j.old, reused: true}
	}
	var defs []treesitter.Definition
	var refs []string
	if withRefs {
		defs, refs, err = p.DefinitionsAndRefs(lang, src)
	} else {
		defs, err = p.Definitions(lang, src)
	}
	f.HasRefs = withRefs
	if err != nil {
		f.Err = "not indexed: " + err.Error()
		if errors.Is(err, treesitter.ErrTimeout) {
			f.ModTime = 0 // perhaps only a busy machine: try again next refresh
		}
	}
	f.Defs, f.Refs = defs, refs
	return parsed{File: f, old: j.old}
}

// countLines counts lines the way an editor numbers them.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// ParseFile builds a File from content that need not be on disk (an
// editor's unsaved buffer, a single file outside any index).
func ParseFile(path string, lang *treesitter.Language, src []byte) *File {
	f := &File{Path: path, Lang: lang.Name, Size: int64(len(src)), Lines: countLines(src)}
	sum := sha256.Sum256(src)
	copy(f.Hash[:], sum[:])
	if bytes.IndexByte(src[:min(len(src), binarySniff)], 0) >= 0 {
		f.Err = "not indexed: binary content"
		return f
	}
	defs, err := treesitter.Definitions(lang, src)
	if err != nil {
		f.Err = "not indexed: " + err.Error()
	}
	f.Defs = defs
	return f
}
