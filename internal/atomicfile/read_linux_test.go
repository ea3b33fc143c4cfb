package atomicfile

import (
	"bytes"
	"testing"
)

// /proc files report no size and are read to the end all the same.
func TestReadFileReadsProcToTheEnd(t *testing.T) {
	p := "/proc/self/status"
	got, err := ReadFile(p)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", p, err)
	}
	// The process changes between reads; its name does not.
	if !bytes.HasPrefix(got, []byte("Name:")) || len(got) < 100 {
		t.Errorf("ReadFile(%s) = %.40q…, want the whole status", p, got)
	}
}
