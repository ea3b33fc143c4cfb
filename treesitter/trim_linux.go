//go:build linux && cgo

package treesitter

// #include <malloc.h>
import "C"

// ReleaseMemory hands the C heap that parsing freed back to the kernel.
// glibc keeps freed blocks in its arenas for reuse; after a batch of parses
// (a largest file's tree is some 40 MB) that is memory a long-lived process
// would otherwise hold for nothing.
func ReleaseMemory() { C.malloc_trim(0) }
