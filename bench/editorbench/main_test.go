package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// TestSmoke runs every scenario with tiny sizes against the real binary:
// it checks that the bench works and prints each goal's line, not how fast
// anything is.
func TestSmoke(t *testing.T) {
	testenv.Program(t, "go") // the floor is built here
	bin := testenv.Tandem(t)
	var out, log bytes.Buffer
	c := config{
		tandems: []program{{name: "tandem", argv: []string{bin, "acp"}}},
		wires:   []string{"openai", "anthropic"},
		chunks:  30, steps: 4, turns: 22, rounds: 1, startups: 1, latencies: 2,
	}
	if err := run(context.Background(), c, &out, &log); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, log.String())
	}
	for _, want := range []string{
		"stream openai, 30 chunks", "stream anthropic, 30 chunks", "rate", "µs/chunk",
		"toolstep openai, 4 steps", "toolstep anthropic, 4 steps", "a step over the floor",
		"first chunk after the model's", "turns openai (tandem)", "startup, spawn → initialize answer",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	// The long session's memory is judged on the live heap tandem reports
	// when signalled (heapstat_unix.go), not on its resident size.
	if runtime.GOOS != "windows" && !strings.Contains(out.String(), "(judged)") {
		t.Errorf("the turns line does not judge the live heap:\n%s", out.String())
	}
	if n := strings.Count(out.String(), "(goal"); n < 10 {
		t.Errorf("%d goals printed, want every scenario's:\n%s", n, out.String())
	}
}
