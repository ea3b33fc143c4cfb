//go:build !windows

package local

import "time"

// announcePid has no one to tell here: only the Windows tests start a
// sibling that waits for the sleeper's pid file (awaitPid).
func announcePid(string) error { return nil }

// awaitPid is the Windows tests' alone (see helper_windows_test.go).
func awaitPid(string, time.Duration) bool { return false }
