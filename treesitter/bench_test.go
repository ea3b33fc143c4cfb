package treesitter

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// benchFiles lists the source files of $TANDEM_BENCH_ROOT (default: the Go
// toolchain's source tree), skipping the directories the code index skips.
func benchFiles(b *testing.B) []string {
	root := os.Getenv("TANDEM_BENCH_ROOT")
	if root == "" {
		root = filepath.Join(runtime.GOROOT(), "src")
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		switch {
		case d.IsDir() && (d.Name() == "vendor" || d.Name() == "node_modules" || d.Name() == ".git" ||
			d.Name() == "build" || d.Name() == "dist" || d.Name() == "target"):
			return filepath.SkipDir
		case d.Type().IsRegular() && ForPath(p) != nil:
			files = append(files, p)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		b.Skipf("no source files under %s", root)
	}
	return files
}

// eachFile runs fn over files with one worker per CPU, set up as the index
// sets up its workers (a held thread, jobs taken from a counter), so the
// parse-only floor and the index differ only in what they do per file.
func eachFile(b *testing.B, files []string, fn func(p *Parser, lang *Language, src []byte)) {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			p := NewParser()
			defer p.Close()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(files) {
					return
				}
				src, err := os.ReadFile(files[k])
				if err != nil || len(src) > MaxSource {
					continue
				}
				fn(p, ForPath(files[k]), src)
			}
		}()
	}
	wg.Wait()
	ReleaseMemory()
}

// BenchmarkParseOnly is the floor for a cold index: parse every file and
// close the tree, extracting nothing.
func BenchmarkParseOnly(b *testing.B) {
	files := benchFiles(b)
	b.ResetTimer()
	for b.Loop() {
		eachFile(b, files, func(p *Parser, lang *Language, src []byte) {
			g, _, _, err := lang.load()
			if err != nil {
				b.Error(err)
				return
			}
			if t := p.parser(lang, g).Parse(nil, src); t != nil {
				t.Close()
			}
		})
	}
	b.ReportMetric(float64(len(files)), "files")
}

// BenchmarkExtract parses and extracts definitions from every file.
func BenchmarkExtract(b *testing.B) {
	files := benchFiles(b)
	b.ResetTimer()
	for b.Loop() {
		eachFile(b, files, func(p *Parser, lang *Language, src []byte) {
			if _, err := p.Definitions(lang, src); err != nil {
				b.Error(err)
			}
		})
	}
	b.ReportMetric(float64(len(files)), "files")
}

// BenchmarkExtractRefs is BenchmarkExtract plus each file's references, as
// the code index reads them.
func BenchmarkExtractRefs(b *testing.B) {
	files := benchFiles(b)
	b.ResetTimer()
	for b.Loop() {
		eachFile(b, files, func(p *Parser, lang *Language, src []byte) {
			if _, _, err := p.DefinitionsAndRefs(lang, src); err != nil {
				b.Error(err)
			}
		})
	}
	b.ReportMetric(float64(len(files)), "files")
}
