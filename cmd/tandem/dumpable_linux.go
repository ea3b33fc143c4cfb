package main

import "golang.org/x/sys/unix"

// notDumpable keeps processes of the same user (the commands the model
// runs among them) from reading tandem's /proc/<pid>/environ and memory,
// where the provider keys live.
func notDumpable() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
