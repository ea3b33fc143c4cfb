package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Marked lists the pids of running (not zombie) processes whose
// environment or command line contains mark.
func Marked(mark string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, _ := os.ReadFile(d + "/environ")
		argv, _ := os.ReadFile(d + "/cmdline")
		if !bytes.Contains(env, []byte(mark)) && !bytes.Contains(argv, []byte(mark)) {
			continue
		}
		if state, _, ok := Stat(pid); ok && state == "Z" {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// Stat reads a process's state letter ("R", "S", "Z"…) and parent pid
// from /proc/<pid>/stat; ok is false when the process is gone. The command
// name may hold spaces and parentheses, so fields are counted after its
// last ')'.
func Stat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	return f[0], ppid, true
}

// WaitNoProcess fails the test when processes carrying mark still run
// after within, and kills them so they do not outlive the test. It waits on
// each one's exit, then looks again for any started meanwhile.
func WaitNoProcess(t testing.TB, mark string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		pids := Marked(mark)
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			if WaitExited(p, time.Until(deadline)) {
				continue
			}
			for _, p := range Marked(mark) {
				if pr, err := os.FindProcess(p); err == nil {
					_ = pr.Kill()
				}
			}
			t.Fatalf("processes %v carrying %s still run %v later", pids, mark, within)
		}
	}
}
