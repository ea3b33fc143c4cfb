//go:build linux && cgo

package treesitter

// #include <malloc.h>
import "C"

// releaseMemory hands memory freed by a large tree back to the kernel.
// glibc keeps freed blocks in per-thread arenas otherwise, so two workers
// that each parsed a big file would hold that peak for the whole run.
func releaseMemory() { C.malloc_trim(0) }
