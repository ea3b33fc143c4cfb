package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// TestSmoke runs every scenario with tiny sizes against the real binary:
// it checks that the bench works and prints each goal's line, not how
// fast anything is.
func TestSmoke(t *testing.T) {
	bin := testenv.Tandem(t)
	var out, log bytes.Buffer
	c := config{tandem: bin, lines: 300, completions: 5, keystrokes: 6, rate: 200, files: 3}
	if err := run(context.Background(), c, &out, &log); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, log.String())
	}
	for _, want := range []string{"latency, 5 completions", "request in → model request out", "typing, 6 keystrokes", "in flight", "memory, completions in 3 open files"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "(goal"); n < 5 {
		t.Errorf("%d goals printed, want every scenario's:\n%s", n, out.String())
	}
	t.Log(out.String())
}
