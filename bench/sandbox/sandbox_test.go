// Package sandbox measures what the command sandbox costs per command:
// `go test -bench . ./bench/sandbox` runs `true` through the local runner
// with and without the sandbox helper and prints the added time.
package sandbox

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/agent/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func perRun(b *testing.B, r local.Runner) time.Duration {
	dir := b.TempDir()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		res, err := r.Run(context.Background(), command.Spec{Command: "true", Dir: dir})
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("%+v %v", res, err)
		}
	}
	return time.Since(start) / time.Duration(b.N)
}

// BenchmarkSandboxCost runs both and reports the sandboxed run's extra
// milliseconds (goal: under 5) and the ratio. The helper is this test
// binary, or the tandem binary named by BENCH_SANDBOX_HELPER, which is
// what production runs. Either way the helper is the C constructor of
// agent/sandbox, which runs before Go starts; the binary's size and
// linking still count through exec and, for a dynamic build, the loader.
func BenchmarkSandboxCost(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	if h := os.Getenv("BENCH_SANDBOX_HELPER"); h != "" {
		exe = h
	}
	var plain, boxed time.Duration
	b.Run("plain", func(b *testing.B) { plain = perRun(b, local.Runner{}) })
	b.Run("sandboxed", func(b *testing.B) { boxed = perRun(b, local.Runner{Sandbox: sandbox.Settings{Helper: exe}}) })
	if plain > 0 {
		added := float64(boxed-plain) / 1e6
		verdict := "met"
		if added >= 5 {
			verdict = "NOT met"
		}
		fmt.Printf("sandbox: plain %v, sandboxed %v, added %.2f ms (goal < 5 ms: %s), ratio %.2f\n",
			plain, boxed, added, verdict, float64(boxed)/float64(plain))
	}
}
