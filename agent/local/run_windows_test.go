//go:build windows

package local

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/internal/testenv"
)

// useCmd takes PowerShell off PATH so commands run in `cmd /c`, which
// every Windows has (and Wine runs for real; its powershell.exe is a
// stub). PowerShell itself is internal/shell's to test.
func useCmd(t *testing.T) {
	t.Setenv("PATH", filepath.Join(os.Getenv("SystemRoot"), "System32"))
}

// The cmd counterpart of run_unix_test.go's TestRun.
func TestRunCmd(t *testing.T) {
	useCmd(t)
	dir := testenv.TempDir(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret")
	t.Setenv("TANDEM_VISIBLE", "yes")
	cases := []struct {
		name    string
		command string
		exit    int
		output  string
	}{
		{name: "success", command: "echo hi", output: "hi\r\n"},
		// cmd echoes up to the redirection, the space before it included.
		{name: "exit code", command: "echo failing 1>&2& exit 3", exit: 3, output: "failing \r\n"},
		{name: "stdout and stderr in order", command: "echo a& echo b 1>&2& echo c", output: "a\r\nb \r\nc\r\n"},
		{name: "runs in dir", command: "cd", output: dir + "\r\n"},
		// cmd leaves an unset variable's reference as written.
		{name: "API keys hidden, the rest inherited", command: "echo %ANTHROPIC_API_KEY% %TANDEM_VISIBLE%", output: "%ANTHROPIC_API_KEY% yes\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), command.Spec{Command: c.command, Dir: dir, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != c.exit || res.Signal != "" || res.TimedOut {
				t.Errorf("exit %d signal %q timedOut %v; want exit %d", res.ExitCode, res.Signal, res.TimedOut, c.exit)
			}
			if !strings.EqualFold(res.Output, c.output) {
				t.Errorf("output %q, want %q", res.Output, c.output)
			}
		})
	}
	res, err := Run(context.Background(), command.Spec{Command: "definitely-not-a-command-xyz", Dir: dir, Timeout: time.Minute})
	if err != nil || res.ExitCode == 0 {
		t.Errorf("a missing command: exit %d, %v; want a failure", res.ExitCode, err)
	}
}

// The Windows counterpart of escape_test.go's TestRunLeavesNothing: a
// program the command started in the background, which the Job Object
// holds, is gone once Run returns, however the command ended.
func TestRunLeavesNothingCmd(t *testing.T) {
	useCmd(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		tail    string // after the background sleeper has written its pid
		cancel  bool
		timeout time.Duration
	}{
		{name: "left running in the background"},
		{name: "cancel", tail: ` & "` + exe + `" ` + sleepArg, cancel: true},
		// The timeout counts from the command's start: under Wine on a
		// busy two-core machine, starting the two programs before the
		// ready line once took more than 10 s.
		{name: "timeout", tail: ` & "` + exe + `" ` + sleepArg, timeout: 25 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := testenv.TempDir(t)
			pidFile := filepath.Join(dir, "sleeper.pid")
			script := `start /b "" "` + exe + `" ` + sleepArg + ` "` + pidFile + `" & "` + exe + `" ` + awaitArg + ` "` + pidFile + `" & echo tandem-ready` + c.tail
			var pid int
			readPid := func() {
				b, err := os.ReadFile(pidFile)
				if err == nil {
					pid, err = strconv.Atoi(string(b))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			runUntilEnd(t, command.Spec{Command: script, Dir: dir, Timeout: c.timeout}, "tandem-ready", readPid, c.cancel, time.Minute)
			waitGone(t, pid)
		})
	}
}

// waitGone fails the test unless pid has exited within a few seconds,
// waiting on the process's own handle; a pid no longer open is gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	if ev, err := windows.WaitForSingleObject(h, 5_000); err != nil || ev != windows.WAIT_OBJECT_0 {
		_ = windows.TerminateProcess(h, 1)
		t.Fatalf("the background process %d still runs after Run returned (wait: %d, %v)", pid, ev, err)
	}
}
