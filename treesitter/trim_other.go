//go:build !linux || !cgo

package treesitter

// releaseMemory is a no-op where the C allocator has no trim call.
func releaseMemory() {}
