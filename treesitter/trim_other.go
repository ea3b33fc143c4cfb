//go:build !linux || !cgo

package treesitter

// ReleaseMemory is a no-op where the C allocator has no trim call.
func ReleaseMemory() {}
