package local

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"golang.org/x/sys/windows"
)

// pidEvent is the named event a sleeper sets once its pid file is in
// place; the name comes from the file's path, so each test's pair of
// helpers has its own. Manual reset: once set it stays set, for a waiter
// that comes later.
func pidEvent(pidFile string) (windows.Handle, error) {
	sum := sha256.Sum256([]byte(pidFile))
	name, err := windows.UTF16PtrFromString(`Local\tandem-pid-` + hex.EncodeToString(sum[:8]))
	if err != nil {
		return 0, err
	}
	// CreateEvent opens the event when the other helper made it first.
	return windows.CreateEvent(nil, 1, 0, name)
}

// announcePid tells an awaitPid waiting on pidFile that the file is
// written. The handle stays open while the sleeper runs, which keeps the
// event, set, for an awaitPid that opens it later.
func announcePid(pidFile string) error {
	h, err := pidEvent(pidFile)
	if err != nil {
		return err
	}
	return windows.SetEvent(h)
}

// awaitPid waits until the sleeper has announced pidFile, and reports
// false if it has not within d.
func awaitPid(pidFile string, d time.Duration) bool {
	h, err := pidEvent(pidFile)
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, uint32(d.Milliseconds()))
	return err == nil && ev == windows.WAIT_OBJECT_0
}
