//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// ttyRun is the real binary on a pseudo-terminal: stdin, stdout and stderr
// are the terminal, as when a person types the command.
type ttyRun struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File // the terminal's master side
	out  testenv.SyncBuffer
	more testenv.Changes // the terminal showed more
	done chan struct{}
}

func startTTY(t *testing.T, srv *llmtest.Server, home string, env []string, args ...string) *ttyRun {
	t.Helper()
	return startTTYWithStdin(t, srv, home, env, nil, args...)
}

// startTTYWithStdin is startTTY with stdin from stdin instead of the
// terminal (nil: the terminal), as in `git diff | tandem run ...`.
func startTTYWithStdin(t *testing.T, srv *llmtest.Server, home string, env []string, stdin io.Reader, args ...string) *ttyRun {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), args...)
	if stdin != nil {
		cmd.Stdin = stdin
		// The terminal is the controlling one through stdout (fd 1 in the child).
		cmd.SysProcAttr = &syscall.SysProcAttr{Ctty: 1}
	}
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home, "TERM=xterm",
		"ANTHROPIC_API_KEY=secret-test-key", "ANTHROPIC_BASE_URL=" + srv.BaseURL(llmtest.Anthropic)}, env...)
	cmd.Dir = home // what a bare `tandem` opens a session in
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := &ttyRun{t: t, cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			r.out.Write(buf[:n])
			r.more.Changed()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		tty.Close()
		<-r.done
	})
	return r
}

// waitFor waits until the screen shows s, checking at each read from the
// terminal.
func (r *ttyRun) waitFor(s string) {
	r.t.Helper()
	r.waitCount(s, 1)
}

// waitCount waits until the screen has shown s n times.
func (r *ttyRun) waitCount(s string, n int) {
	r.t.Helper()
	if !r.more.Wait(20*time.Second, func() bool { return strings.Count(r.out.String(), s) >= n }) {
		r.t.Fatalf("the terminal never showed %q %d times:\n%q", s, n, r.out.String())
	}
}

func (r *ttyRun) send(s string) {
	if _, err := r.tty.Write([]byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// exit waits for the process and returns its exit code and all it showed.
func (r *ttyRun) exit() (int, string) {
	r.t.Helper()
	if err := testenv.WaitExit(r.cmd, 20*time.Second); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			<-r.done
			return ee.ExitCode(), r.out.String()
		}
		r.t.Fatalf("%v\n%q", err, r.out.String())
	}
	<-r.done
	return 0, r.out.String()
}

const (
	sgrRed   = "\x1b[31m"
	sgrGreen = "\x1b[32m"
)

// An auto-approved edit shows as a coloured diff on a terminal, and as
// plain text when the output goes to pipes; NO_COLOR turns colour off on
// a terminal too. The spinner shows while the model works.
func TestTTYColourOnlyOnTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	slow := llmtest.Reply{Text: []string{"Done."}, Delay: llmtest.Duration(150 * time.Millisecond)}
	script := func() {
		os.WriteFile(filepath.Join(work, "notes.txt"), []byte("draft\n"), 0o644)
		srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: `{"path":"notes.txt","old_string":"draft","new_string":"final"}`}}}, slow)
	}

	script()
	r := startTTY(t, srv, home, nil, "run", "finish", "--yes", "--cwd", work)
	code, shown := r.exit()
	if code != 0 {
		t.Fatalf("exit %d:\n%q", code, shown)
	}
	for _, want := range []string{sgrRed + "-draft", sgrGreen + "+final", "working", "✓", "Done."} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, shown)
		}
	}

	script()
	r = startTTY(t, srv, home, []string{"NO_COLOR=1"}, "run", "finish", "--yes", "--cwd", work)
	code, shown = r.exit()
	if code != 0 || strings.Contains(shown, sgrRed) || strings.Contains(shown, sgrGreen) || !strings.Contains(shown, "+final") {
		t.Errorf("NO_COLOR: exit %d, coloured or no diff:\n%q", code, shown)
	}

	script()
	out, errOut, code := tandem(t, srv, home, "", "run", "finish", "--yes", "--cwd", work)
	if code != 0 || strings.Contains(out+errOut, "\x1b[") {
		t.Errorf("pipes: exit %d, escape sequences in %q %q", code, out, errOut)
	}
	if out != "Done.\n" || !strings.Contains(errOut, "-draft\n+final\n") {
		t.Errorf("pipes: stdout %q, stderr %q: want the answer and a plain diff", out, errOut)
	}
}

// A permission prompt on a terminal shows the change as hunks with a few
// lines of context, not the whole file, and takes the answer typed.
func TestTTYPromptShowsHunks(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	os.WriteFile(filepath.Join(work, "long.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: `{"path":"long.txt","old_string":"line 20\n","new_string":"line twenty\n"}`}}},
		llmtest.Reply{Text: []string{"Changed."}},
	)
	r := startTTY(t, srv, home, nil, "run", "--cwd", work, "rename", "line", "20")
	r.waitFor("Choose [")
	r.send("y\r")
	code, shown := r.exit()
	if code != 0 {
		t.Fatalf("exit %d:\n%q", code, shown)
	}
	if !strings.Contains(shown, "@@ -17,7 +17,7 @@") || !strings.Contains(shown, "+line twenty") {
		t.Errorf("no hunk in the prompt:\n%q", shown)
	}
	if strings.Contains(shown, "line 1\r\n") || strings.Contains(shown, "line 40") {
		t.Errorf("the prompt shows lines far from the change:\n%q", shown)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "long.txt")); !strings.Contains(string(b), "line twenty\n") {
		t.Error("the approved edit was not applied")
	}
	if strings.Count(shown, "+line twenty") != 1 {
		t.Errorf("the diff was shown again after the approved edit:\n%q", shown)
	}
}

// Ctrl-C cancels the turn: the model request is dropped and the exit code
// is 130.
func TestTTYCtrlCCancels(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(llmtest.Reply{Text: []string{"thinking about it"}, Hang: true})
	r := startTTY(t, srv, home, nil, "run", "--cwd", work, "take", "your", "time")
	r.waitFor("thinking about it")
	r.send("\x03")
	code, shown := r.exit()
	if code != exitCancelled || !strings.Contains(shown, "cancelled") {
		t.Errorf("exit %d, want %d:\n%q", code, exitCancelled, shown)
	}
}

// A running command's output streams into a dimmed tail of a few lines
// that is redrawn in place; its last lines stay under its status line.
func TestTTYCommandTail(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"for i in 1 2 3 4 5 6 7 8; do echo line$i; sleep 0.1; done"}`}}},
		llmtest.Reply{Text: []string{"Ran."}},
	)
	r := startTTY(t, srv, home, nil, "run", "--cwd", work, "--yes", "count")
	code, shown := r.exit()
	if code != 0 {
		t.Fatalf("exit %d:\n%q", code, shown)
	}
	if !strings.Contains(shown, "\x1b[2m  │ line1\x1b[0m\r\n") {
		t.Errorf("no live, dimmed output while the command ran:\n%q", shown)
	}
	if !strings.Contains(shown, "\x1b[1A") {
		t.Errorf("the live region was never redrawn in place:\n%q", shown)
	}
	done := shown[strings.LastIndex(shown, "✓"):]
	if !strings.Contains(done, "│ line8") || strings.Contains(done, "│ line3") {
		t.Errorf("want the last %d lines under the status line:\n%q", tailLines, done)
	}
}

// With the prompt piped in at a terminal, questions are asked on the
// terminal itself.
func TestTTYPipedPromptAsksOnTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"review.md","content":"looks fine\n"}`}}},
		llmtest.Reply{Text: []string{"Wrote the review."}},
	)
	r := startTTYWithStdin(t, srv, home, nil, strings.NewReader("-old\n+new\n"), "run", "--cwd", work, "review", "this")
	r.waitFor("Choose [")
	r.send("y\r")
	code, shown := r.exit()
	if code != 0 {
		t.Fatalf("exit %d:\n%q", code, shown)
	}
	if got := srv.Requests()[0].LastUserText(); got != "review this\n\n-old\n+new" {
		t.Errorf("prompt = %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "review.md")); string(b) != "looks fine\n" {
		t.Errorf("the approved write did not happen: %q", b)
	}
}

// stubborn is a command that outlives SIGTERM (a child that ignores it)
// and says so in stopping.fifo when the cancel's SIGTERM reaches it, so a
// test sees the cancel waiting on it.
const stubborn = `{"command":"(trap '' TERM INT; exec sleep 30) & trap 'echo stopping > stopping.fifo' TERM INT; echo started; while kill -0 $! 2>/dev/null; do wait $!; done"}`

// The first Ctrl-C cancels; while the cancel waits (here on a command
// that ignores SIGTERM, given a grace before SIGKILL), a second one quits
// at once.
func TestTTYSecondCtrlCQuits(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	stopping := testenv.FifoLines(t, filepath.Join(work, "stopping.fifo"))
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: stubborn}}})
	r := startTTY(t, srv, home, nil, "run", "--cwd", work, "--yes", "wait")
	r.waitFor("│ started")
	r.send("\x03")
	testenv.NextLine(t, stopping, 20*time.Second, "the command's SIGTERM") // the cancel reached it; it holds on
	r.send("\x03")
	start := time.Now()
	code, shown := r.exit()
	if code != -1 || time.Since(start) > 1500*time.Millisecond {
		t.Errorf("exit %d after %s, want killed by the second Ctrl-C at once:\n%q", code, time.Since(start), shown)
	}
}
