//go:build unix

// Command rusage runs a command and prints, on stderr, its wall time, CPU
// time and peak resident set size from getrusage: a stand-in for
// /usr/bin/time where that is not installed. Output (one line):
//
//	wall=1.234 user=2.345 sys=0.123 maxrss_kb=45678
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rusage command [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(127)
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var user, sys float64
	var rss int64
	if ru != nil {
		user = time.Duration(ru.Utime.Nano()).Seconds()
		sys = time.Duration(ru.Stime.Nano()).Seconds()
		rss = ru.Maxrss // kilobytes on Linux
	}
	fmt.Fprintf(os.Stderr, "wall=%.3f user=%.3f sys=%.3f maxrss_kb=%d\n", wall.Seconds(), user, sys, rss)
	os.Exit(cmd.ProcessState.ExitCode())
}
