// Package procstat reads what the benchmarks measure of a running child
// process from /proc (Linux); elsewhere it reports zero.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// RSS is the resident memory of process pid in bytes, 0 when unknown.
func RSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}
