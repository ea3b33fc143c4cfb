// Package flock takes an exclusive lock on a directory that other
// processes honour, the one place that knows how per platform: flock on
// the directory itself on Unix, LockFileEx on Windows. It serialises
// read-modify-write cycles of files in that directory between tandem
// processes (two editors saving a rule at once).
package flock

import (
	"fmt"
	"time"
)

// Dir takes the lock on dir, waiting at most wait for another holder to
// let go; a holder that keeps it longer is stuck, and Dir fails saying so
// rather than hanging. It returns the unlock.
func Dir(dir string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	l, err := open(dir)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	for {
		busy, err := l.try()
		if err == nil && !busy {
			return l.release, nil
		}
		if err == nil && time.Now().After(deadline) {
			err = fmt.Errorf("still held by another process after %v", wait)
		}
		if err != nil {
			l.release()
			return nil, fmt.Errorf("locking %s: %w", dir, err)
		}
		// Neither system offers a lock wait with a timeout; a short
		// poll is what a save can afford.
		time.Sleep(5 * time.Millisecond)
	}
}
