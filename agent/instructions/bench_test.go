//go:build unix

package instructions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deepWorkspace builds a repository with the cwd 10 levels below the root,
// a ~1 KiB AGENTS.md at every level (CLAUDE.md at odd ones) and a global
// file. Files are dated an hour back: a warm workspace nobody is editing
// this second, so versions are trusted without re-reading.
func deepWorkspace(b *testing.B) (Config, string, string) {
	base := b.TempDir()
	home := filepath.Join(base, "home")
	write(b, filepath.Join(home, "AGENTS.md"), strings.Repeat("global rule\n", 80))
	dir := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	for level := 0; level <= 10; level++ {
		if level > 0 {
			dir = filepath.Join(dir, fmt.Sprintf("l%d", level))
		}
		name := "AGENTS.md"
		if level%2 == 1 {
			name = "CLAUDE.md"
		}
		write(b, filepath.Join(dir, name), strings.Repeat(fmt.Sprintf("level %d rule\n", level), 70))
	}
	src := filepath.Join(dir, "main.go")
	write(b, src, "package main")
	old := time.Now().Add(-time.Hour)
	filepath.Walk(base, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	return DefaultConfig(home), dir, src
}

// BenchmarkBaselineDeep: a new session's baseline, cwd 10 levels deep.
func BenchmarkBaselineDeep(b *testing.B) {
	cfg, cwd, _ := deepWorkspace(b)
	h := newHookFS()
	if _, err := newTracker(cfg, cwd, h).Baseline(bg); err != nil {
		b.Fatal(err)
	}
	defer b.ReportMetric(float64(len(h.bytesRead)), "reads/op")
	defer b.ReportMetric(float64(h.stats), "stats/op")
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		bt, err := NewTracker(cfg, cwd).Baseline(bg)
		if err != nil || bt == nil || len(bt.Meta.Changes) != 12 {
			b.Fatalf("baseline: %v", err)
		}
	}
}

// BenchmarkReconcileUnchanged: the check after a tool call when nothing
// changed, in the same deep workspace.
func BenchmarkReconcileUnchanged(b *testing.B) {
	cfg, cwd, src := deepWorkspace(b)
	tr := NewTracker(cfg, cwd)
	touched := []string{src}
	if _, err := tr.Baseline(bg); err != nil {
		b.Fatal(err)
	}
	h := newHookFS()
	counted := newTracker(cfg, cwd, h)
	counted.Baseline(bg)
	counted.Reconcile(bg, touched) // the first one fills the probe cache
	h.stats, h.bytesRead = 0, map[string]int64{}
	counted.Reconcile(bg, touched)
	defer b.ReportMetric(float64(len(h.bytesRead)), "reads/op")
	defer b.ReportMetric(float64(h.stats), "stats/op")
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if bt, err := tr.Reconcile(bg, touched); err != nil || bt != nil {
			b.Fatalf("reconcile: %v %v", bt, err)
		}
	}
}

// cpuPerOp reports the process's CPU time (user + system) per iteration.
// On a loaded machine wall time mostly measures the wait for a core; this
// is the work itself.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOSStatDeep calibrates the two above: one os.Stat of the deepest
// instruction file on this machine. Reconcile costs about 25 of these.
func BenchmarkOSStatDeep(b *testing.B) {
	_, cwd, _ := deepWorkspace(b)
	file := filepath.Join(cwd, "AGENTS.md")
	defer cpuPerOp(b)()
	for b.Loop() {
		if _, err := os.Stat(file); err != nil {
			b.Fatal(err)
		}
	}
}
