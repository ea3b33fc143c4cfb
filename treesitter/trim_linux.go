//go:build linux && cgo

package treesitter

// #include <malloc.h>
// // malloc_trim is glibc's; musl's allocator returns freed memory by itself.
// static void release_memory(void) {
// #ifdef __GLIBC__
// 	malloc_trim(0);
// #endif
// }
import "C"

// ReleaseMemory hands the C heap that parsing freed back to the kernel.
// glibc keeps freed blocks in its arenas for reuse; after a batch of parses
// (a largest file's tree is some 40 MB) that is memory a long-lived process
// would otherwise hold for nothing. Other C libraries (musl) give freed
// memory back without being asked.
func ReleaseMemory() { C.release_memory() }
