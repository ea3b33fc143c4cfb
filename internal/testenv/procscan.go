package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
		if stat, err := os.ReadFile(d + "/stat"); err == nil {
			s := string(stat)
			if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// WaitNoProcess fails the test when processes carrying mark still run
// after within, and kills them so they do not outlive the test.
func WaitNoProcess(t testing.TB, mark string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		pids := Marked(mark)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, p := range pids {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("processes %v carrying %s still run %v later", pids, mark, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
