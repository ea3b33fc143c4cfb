package proc_test

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/testenv"
)

// The test binary is its own child and grandchild, so the tests need no
// shell and run the same on every platform (Windows under wine too).
const helperEnv = "TANDEM_PROC_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "parent":
		// Starts a grandchild outside any care of the test, says its pid
		// and waits to be ended.
		c := testenv.Self()
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := c.Start(); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString(strconv.Itoa(c.Process.Pid) + "\n")
		time.Sleep(time.Hour)
		os.Exit(0)
	case "sleep":
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startTree starts a helper parent as a tree and returns the tree, the
// command and the grandchild's pid.
func startTree(t *testing.T) (*proc.Tree, *exec.Cmd, int) {
	t.Helper()
	cmd := testenv.Self()
	cmd.Env = append(os.Environ(), helperEnv+"=parent")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tree.Close()
		t.Fatalf("no grandchild pid from the helper: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		tree.Close()
		t.Fatal(err)
	}
	return tree, cmd, pid
}

func TestKillEndsGrandchildren(t *testing.T) {
	tree, cmd, grandchild := startTree(t)
	defer tree.Close()
	if err := tree.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the killed child exited cleanly")
	}
	waitGone(t, grandchild)
	// Killing a tree that is gone is no error.
	if err := tree.Kill(); err != nil {
		t.Fatalf("second Kill: %v", err)
	}
}

func TestCloseEndsGrandchildren(t *testing.T) {
	tree, cmd, grandchild := startTree(t)
	if err := tree.Close(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waitGone(t, grandchild)
}

func TestTrackBeforeStartFails(t *testing.T) {
	if _, err := proc.Track(testenv.Self()); err == nil {
		t.Fatal("Track of a command that has not started succeeded")
	}
}
