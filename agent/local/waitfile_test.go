package local

import (
	"os"
	"testing"
	"time"
)

// waitFile waits until a command under test has made path, the sign
// that what it started is running.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the command never got ready")
}
