package local

import (
	"os"
	"strconv"
	"time"
)

// The test binary is also the long-running program the process-tree
// tests start, so that they need no sleep or setsid of the platform's:
// "local.test tandem-sleep PIDFILE" writes its pid to PIDFILE (when
// given), announces it (announcePid) and sleeps; "local.test tandem-await
// PIDFILE" exits once the sleeper has announced PIDFILE (Windows only,
// where the pair runs in one cmd line and the sibling must not go on
// before the pid is there to read).
const (
	sleepArg = "tandem-sleep"
	awaitArg = "tandem-await"
)

// testHelper plays the part os.Args asks for, if any, and exits.
func testHelper() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case sleepArg:
		if len(os.Args) > 2 {
			// Written aside and renamed, so a reader never sees half a pid.
			tmp := os.Args[2] + ".tmp"
			if os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())), 0o644) != nil || os.Rename(tmp, os.Args[2]) != nil {
				os.Exit(3)
			}
			if announcePid(os.Args[2]) != nil {
				os.Exit(5)
			}
		}
		time.Sleep(time.Hour)
		os.Exit(0)
	case awaitArg:
		if awaitPid(os.Args[2], 30*time.Second) {
			os.Exit(0)
		}
		os.Exit(4)
	}
}
