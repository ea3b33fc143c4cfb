// Command startup measures process start to exit of commands, median of
// -n runs each, and prints them with their ratio to the first one. It is
// the timing half of bench/startup.sh.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 50, "runs per command")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: startup [-n N] 'cmd args' ...")
		os.Exit(2)
	}
	var first time.Duration
	for i, c := range flag.Args() {
		argv := strings.Fields(c)
		runs := make([]time.Duration, 0, *n)
		for range *n {
			cmd := exec.Command(argv[0], argv[1:]...)
			start := time.Now()
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n", c, err)
				os.Exit(1)
			}
			runs = append(runs, time.Since(start))
		}
		slices.Sort(runs)
		med := runs[len(runs)/2]
		if i == 0 {
			first = med
		}
		label := strings.Join(append([]string{filepath.Base(argv[0])}, argv[1:]...), " ")
		fmt.Printf("%-24s %8.2f ms  %5.2fx\n", label, float64(med.Microseconds())/1000, float64(med)/float64(first))
	}
}
