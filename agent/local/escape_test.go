//go:build !windows

// Unix only: these tests drive commands through sh, and Windows has no
// kernel sandbox in this release (agent/sandbox); run_windows_test.go
// holds the Windows counterparts of the process-tree checks.

package local

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/internal/testenv"
)

// escape is a script that tries to outlive Run.
type escape struct {
	name    string
	script  string // prints $READY once its escapes run
	cancel  bool
	timeout time.Duration
}

// TestRunLeavesNothing starts the usual ways out of a process group's
// leader and checks the process table afterwards: nothing carrying the
// test's marker may run once Run has returned.
func TestRunLeavesNothing(t *testing.T) {
	runEscapes(t, []escape{
		{name: "cancel", script: `sleep 300 & echo "$READY"; wait`, cancel: true},
		{name: "cancel, TERM ignored", script: `trap "" TERM; sleep 300 & echo "$READY"; wait`, cancel: true},
		{name: "timeout", script: `sleep 300 & echo "$READY"; wait`, timeout: 500 * time.Millisecond},
		{name: "left running in the background", script: `sleep 300 >/dev/null 2>&1 & echo "$READY"`},
		{name: "background child holding the pipe", script: `sleep 300 & echo "$READY"`},
		{name: "double fork", script: `(sh -c 'sleep 300' >/dev/null 2>&1 &) ; sleep 0.2; echo "$READY"`},
		{name: "nohup", script: `nohup sleep 300 >/dev/null 2>&1 & sleep 0.2; echo "$READY"`},
		{name: "disown", script: `bash -c 'sleep 300 >/dev/null 2>&1 & disown; echo "$READY"'`},
	})
}

// TestRunLeavesNothingSetsid is TestRunLeavesNothing for the escapes that
// leave the process group too (setsid), which only the helper's PID
// namespace holds.
func TestRunLeavesNothingSetsid(t *testing.T) {
	runEscapes(t, []escape{
		{name: "setsid", script: `setsid sleep 300 >/dev/null 2>&1 < /dev/null & sleep 0.2; echo "$READY"`},
		{name: "setsid, cancelled", script: `setsid sleep 300 >/dev/null 2>&1 < /dev/null & sleep 0.2; echo "$READY"; sleep 300`, cancel: true},
		{name: "command killed with -9", script: `setsid sleep 300 >/dev/null 2>&1 < /dev/null & sleep 0.2; echo "$READY"; kill -9 $$`},
	})
}

// runEscapes runs each case's script with Run and checks that nothing it
// started outlives the call.
func runEscapes(t *testing.T, cases []escape) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ready := "ready-" + escapeMark(dir)
			mark := "TANDEM_ESCAPE_MARK=" + escapeMark(dir)
			spec := command.Spec{Command: "export " + mark + " READY=" + ready + "; " + c.script, Dir: dir, Timeout: c.timeout}
			runUntilEnd(t, spec, ready, nil, c.cancel, 10*time.Second)
			testenv.WaitNoProcess(t, mark, 3*time.Second)
		})
	}
}

// TestRunWithoutHelper runs the escapes with the zero Runner (no helper: a
// plain process group), which still kills its group.
func TestRunWithoutHelper(t *testing.T) {
	dir := t.TempDir()
	mark := "TANDEM_ESCAPE_MARK=" + escapeMark(dir)
	res, err := Runner{}.Run(context.Background(), command.Spec{Command: "export " + mark + "; sleep 300 & echo $$", Dir: dir})
	if err != nil || res.ExitCode != 0 || strings.TrimSpace(res.Output) == "1" {
		t.Fatalf("res %+v err %v: want a plain child, not a namespace init", res, err)
	}
	testenv.WaitNoProcess(t, mark, 3*time.Second)
}

// escapeMark names one test's processes: t.TempDir's own name is "001" in
// every parallel subtest, so the unique directory above it is used too.
func escapeMark(dir string) string {
	return filepath.Base(filepath.Dir(dir)) + "-" + filepath.Base(dir)
}
