package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/atomicfile"
	"github.com/tandemhq/tandem/internal/proc"
)

// BenchmarkApplyEdit is one edit of a tool step: the file read back,
// checked and replaced under a turn's batch (the fsync left to the turn's
// end), as the agent's edit_file does: by temporary file and rename. The
// workspace is in $TMPDIR. "churned" first creates and deletes 2,000
// files in the workspace, as builds and editors do: on ext4 without a
// journal, every file created afterwards is slower, as its inode is
// sought past those freed in the last half minute.
func BenchmarkApplyEdit(b *testing.B) {
	for _, churn := range []int{0, 2000} {
		name := map[int]string{0: "", 2000: "-churned"}[churn]
		b.Run("rename"+name, func(b *testing.B) { benchApplyEdit(b, churn) })
	}
}

func benchApplyEdit(b *testing.B, churn int) {
	dir := b.TempDir()
	for i := range churn {
		p := filepath.Join(dir, fmt.Sprint("junk", i))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		os.Remove(p)
	}
	p := filepath.Join(dir, "main.go")
	body := strings.Repeat("func handler() {}\n", 60)
	if err := os.WriteFile(p, []byte("m0 \n"+body), 0o644); err != nil {
		b.Fatal(err)
	}
	h := Host{Root: dir}
	ctx := atomicfile.WithBatch(context.Background(), &atomicfile.Batch{})
	start := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		old, new := fmt.Sprintf("m%d \n", i)+body, fmt.Sprintf("m%d \n", i+1)+body
		res, err := h.ApplyEdit(ctx, edits.FileEdit{Path: p, Old: old, New: new})
		if err != nil || !res.Applied {
			b.Fatalf("edit %d: %+v %v", i, res, err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time this process has used so far: on a loaded
// machine the wall time says more about the neighbours.
func cpuTime() time.Duration {
	d, _ := proc.SelfUsage()
	return d
}
