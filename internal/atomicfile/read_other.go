//go:build !unix

package atomicfile

import "os"

// ReadFile is os.ReadFile where the plain system calls of read.go are not
// there.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
