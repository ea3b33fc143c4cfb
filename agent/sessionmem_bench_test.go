package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"unsafe"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// BenchmarkSessionMemory plays 500 real turns in one session (the store
// on, as in production) and reports what the heap keeps per turn between
// turn 10 and turn 500 (heap-B/turn: live bytes after a collection)
// against what the history grows per turn (hist-B/turn: the request
// body's growth, the history as it travels); msgs-B/turn is the part of
// the heap's growth that is the history itself as llm.Messages. The live heap, not the RSS,
// because the RSS of a Go process is the live heap plus collector
// headroom that the runtime sizes from the live heap (GOGC) and returns
// to the system when it likes: it follows the live heap, noisily. The
// model server keeps no requests and the host drops its updates, so only
// the session's own memory counts. Run it with -benchtime 1x.
//
// BENCH_HEAP_PROFILE=PATH also writes heap profiles at both turns, every
// allocation sampled, as PATH.FORMAT.10 and PATH.FORMAT.500 (and
// PATH.tools.FORMAT.* for BenchmarkSessionMemoryTools); what a turn
// keeps is their difference: go tool pprof -sample_index=inuse_space
// -diff_base PATH.anthropic.10 agent.test PATH.anthropic.500.
func BenchmarkSessionMemory(b *testing.B) {
	for i, p := range benchProviders {
		b.Run("provider="+string(p.format), func(b *testing.B) {
			for range b.N {
				s, srv := newLongSession(b, i, true)
				benchSessionMemory(b, s, srv, "", 500)
			}
		})
	}
}

// BenchmarkSessionMemoryTools is BenchmarkSessionMemory with a tool step
// in every turn, as a working session has them: the model reads a file of
// some 1 KB, then answers. Its history is mostly tool output, which the
// text turns of BenchmarkSessionMemory lack. 200 turns, not 500: by then
// the history would fill the smaller window (Anthropic's) and be
// compacted, which is not what this measures.
func BenchmarkSessionMemoryTools(b *testing.B) {
	for i, p := range benchProviders {
		b.Run("provider="+string(p.format), func(b *testing.B) {
			for range b.N {
				srv := newScriptServer(b, p.format, false,
					llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"main.go"}`}}},
					llmtest.Reply{Text: []string{benchAnswer}})
				cwd := b.TempDir()
				if err := os.WriteFile(filepath.Join(cwd, "main.go"), []byte(toolStepFile), 0o644); err != nil {
					b.Fatal(err)
				}
				benchSessionMemory(b, newBenchSession(b, i, srv, true, cwd), srv, "tools.", 200)
			}
		})
	}
}

// benchSessionMemory plays turns 1 to to on s and reports from turn 10;
// tag names its profiles apart.
func benchSessionMemory(b *testing.B, s *Session, srv *replayServer, tag string, to int) {
	const from = 10
	profile := os.Getenv("BENCH_HEAP_PROFILE")
	if profile != "" {
		// Every allocation sampled: a turn keeps a few hundred bytes,
		// which the default sampling (one in 512 KB) would only guess at.
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 1
	}
	ctx := context.Background()
	var heap, hist, held [2]float64
	for turn := 1; turn <= to; turn++ {
		if _, err := s.Prompt(ctx, prompt(fmt.Sprintf("question %d about the code", turn))); err != nil {
			b.Fatal(err)
		}
		if turn != from && turn != to {
			continue
		}
		k := min(turn/to, 1)
		hist[k] = float64(srv.lastLen.Load())
		if err := s.do(ctx, func() { held[k] = float64(heldBytes(s.hist.msgs)) }); err != nil {
			b.Fatal(err)
		}
		heap[k] = liveHeap()
		if profile != "" {
			writeHeapProfile(b, fmt.Sprintf("%s.%s%s.%d", profile, tag, s.a.cfg.Provider.Name(), turn))
		}
	}
	b.ReportMetric((heap[1]-heap[0])/float64(to-from), "heap-B/turn")
	b.ReportMetric((hist[1]-hist[0])/float64(to-from), "hist-B/turn")
	b.ReportMetric((held[1]-held[0])/float64(to-from), "msgs-B/turn")
	b.ReportMetric((heap[1]-heap[0])/(hist[1]-hist[0]), "heap/hist")
}

// heldBytes is what a history takes as llm.Messages, at least: the
// message headers, the parts (a Part is a fixed-size struct, whatever it
// holds; its rare fields another when set) and the bytes of their strings.
func heldBytes(h []llm.Message) int {
	n := len(h) * int(unsafe.Sizeof(llm.Message{}))
	for _, m := range h {
		n += cap(m.Content) * int(unsafe.Sizeof(llm.Part{}))
		for _, p := range m.Content {
			n += len(p.Text) + len(p.ToolCallID) + len(p.ToolName) + len(p.Input)
			if p.PartRare != nil {
				n += int(unsafe.Sizeof(*p.PartRare)) + len(p.Data()) + len(p.Signature()) + len(p.Redacted())
			}
		}
	}
	return n
}

// writeHeapProfile writes what the heap holds now to path, to find what
// a session keeps (go tool pprof -sample_index=inuse_space).
func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// liveHeap is the bytes the heap holds after two collections (the second
// frees what finalizers of the first released).
func liveHeap() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}
